/**
 * What an agent saw, said at the end of its echo: the user's earlier messages, from the
 * conversation a root_id continues and from the messages sent, and the files attached to the run.
 * Deterministic, so that an example, a test or a screenshot shows memory and files at work without
 * a platform account.
 */
import type { Message } from './executionInput';
import { contentText } from './executionInput';
import type { EmulatorState } from './types';

function userTexts(messages: unknown): string[] {
	if (!Array.isArray(messages)) return [];
	return (messages as Message[])
		.filter((m) => m?.role === 'user')
		.map((m) => contentText(m.content).trim())
		.filter(Boolean);
}

/** The user's messages before this one: earlier runs of the conversation, then the messages sent but the last. */
export function earlierUserMessages(
	state: EmulatorState,
	rootId: number | null,
	messages: Message[],
): string[] {
	const earlier: string[] = [];
	if (rootId !== null) {
		const runs = [...state.runs.values()]
			.filter((r) => r.root_id === rootId)
			.sort((a, b) => a.id - b.id);
		for (const run of runs) {
			const sent = userTexts(run.answers.messages);
			earlier.push(...(sent.length ? sent : run.input ? [run.input] : []));
		}
	}
	earlier.push(...userTexts(messages).slice(0, -1));
	return earlier;
}

/**
 * The conversation a model is sent for a run: the earlier runs of the session (what each was sent,
 * what it answered), then the messages of this one.
 */
export function sessionMessages(
	state: EmulatorState,
	rootId: number | null,
	messages: Message[],
): Message[] {
	const runs = [...state.runs.values()]
		.filter((r) => rootId !== null && r.root_id === rootId && r.status === 'succeeded')
		.sort((a, b) => a.id - b.id);
	return [
		...runs.flatMap((run): Message[] => [
			{ role: 'user', content: run.input },
			{ role: 'assistant', content: run.output },
		]),
		...messages,
	];
}

/** The words added to an echo: nothing for a first message. */
export function seenWords(earlier: string[] | undefined): string {
	if (!earlier?.length) return '';
	return ` (Earlier in this conversation you wrote: ${earlier.map((m) => `"${m}"`).join('; ')})`;
}

/** " I received the attached file notes.txt." for the run's files, or nothing. */
export function filesSeenWords(state: EmulatorState, fileIds: number[]): string {
	if (!fileIds.length) return '';
	const names = fileIds.map((id) => state.files.get(id)?.filename ?? `file ${id}`);
	const listed =
		names.length === 1
			? names[0]
			: `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
	return ` I received the attached file${names.length === 1 ? '' : 's'} ${listed}.`;
}
