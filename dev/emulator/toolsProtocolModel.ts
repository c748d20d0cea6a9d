/**
 * The emulator's stand-in behind the Agent Platform Chat Model's tools protocol (the package's
 * helpers/chatModel/, docs/chat-model.md): what it says is scriptedProse.ts'; here it is read
 * from the protocol's messages and written in the protocol's words:
 *
 * - the last user message is the question → the stand-in's turn: tool calls, or an answer;
 * - the last user message holds tools' results → a sentence from each;
 * - a correction request → the valid answer again.
 *
 * It writes calls in the protocol's own shape; a test that needs another reply (a structured
 * answer, a forced tool's call) states it word for word (`replies`, scriptedReplies.ts).
 */
import {
	TOOLS_PROTOCOL_MARK,
	toolCallText,
} from '../../nodes/AgentPlatform/helpers/output/protocolWords';
import { isCorrection, literal, toolLinesIn, toolResultsIn } from './protocolReaders';
import { contentText, type Message } from './executionInput';
import { noted, resultSentence, standInTurn, type Given } from './scriptedProse';
import { takeNext, type ScriptedAnswer } from './scriptedReplies';

interface Property {
	type?: string | string[];
	properties?: Record<string, Property>;
}

interface DescribedTool {
	name: string;
	description: string;
	schema: Property;
}

function describedTools(instruction: string): DescribedTool[] {
	return toolLinesIn(instruction).map((line) => {
		const description =
			new RegExp(`^- ${literal(line.name)}: (.*)$`, 'm').exec(instruction)?.[1] ?? '';
		let schema: Property = {};
		try {
			schema = JSON.parse(line.schema) as Property;
		} catch {
			// described without a readable schema: called without arguments
		}
		return { name: line.name, description, schema };
	});
}

/** A tool's arguments: its strings and numbers from what the question gives, nothing else. */
function givenArguments(schema: Property, given: Given): Record<string, unknown> {
	const [texts, numbers] = [[...given.texts], [...given.numbers]];
	const found: Record<string, unknown> = {};
	for (const [name, property] of Object.entries(schema.properties ?? {})) {
		const type = [property.type].flat().find((t) => t !== 'null');
		// each text once, the last again
		if (type === 'string' && texts.length) found[name] = takeNext(texts);
		if ((type === 'number' || type === 'integer') && numbers.length) found[name] = numbers.shift();
	}
	return found;
}

function toolsAnswer(tools: DescribedTool[], messages: Message[]): ScriptedAnswer {
	const users = messages.filter((m) => m.role === 'user').map((m) => contentText(m.content));
	const last = users[users.length - 1] ?? '';
	const question = [...users].reverse().find((u) => !toolResultsIn(u) && !isCorrection(u)) ?? '';
	const answer = (output: string): ScriptedAnswer => ({ output, finishReason: 'stop' });
	const askedAt = messages.findIndex(
		(m) => m.role === 'user' && contentText(m.content) === question,
	);
	const before = messages.slice(0, Math.max(0, askedAt));
	const earlier = before
		.filter((m) => m.role === 'user')
		.map((m) => contentText(m.content))
		.filter((u) => !toolResultsIn(u) && !isCorrection(u));
	const firstAnswer = !before.some((m) => m.role === 'assistant');

	if (toolResultsIn(last)) {
		const since = users
			.slice(users.lastIndexOf(question) + 1)
			.flatMap((u) => toolResultsIn(u) ?? []);
		return answer(
			noted(since.map(({ tool, result }) => resultSentence(tool, result)).join('\n'), firstAnswer),
		);
	}
	const turn = standInTurn(question, earlier, tools);
	if (turn.kind === 'answer') return answer(noted(turn.text, firstAnswer));
	return answer(
		turn.calls
			.map(({ tool, given }) => toolCallText(tool.name, givenArguments(tool.schema, given)))
			.join('\n'),
	);
}

/** The stand-in's answer, or undefined when the request is for the agent's own output. */
export function scriptedModelAnswer(messages: Message[]): ScriptedAnswer | undefined {
	const system = messages.find((m) => m.role === 'system');
	const instruction = system ? contentText(system.content) : '';
	const at = instruction.indexOf(TOOLS_PROTOCOL_MARK);
	return at < 0 ? undefined : toolsAnswer(describedTools(instruction.slice(at)), messages);
}
