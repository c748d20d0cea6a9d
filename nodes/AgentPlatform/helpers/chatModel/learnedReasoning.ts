/**
 * Whether a stream of an agent and model starts inside reasoning opened in its prompt (only a
 * closing `</think>` comes), learnt from its replies: what a reply showed outranks the model's
 * name, both ways, so that a reply without the tag is not pending again by the name rule. A hundred
 * agents and models at most.
 */
import { BoundedMap } from '../../transport/boundedMap';
import type { ModelSettings, Reply } from './platformCalls';
import { closingAlone, reasoningOpenedInPrompt } from './toolCallReader';

/** By agent and model: the closing tag its replies start before, or '' for none. */
const learned = new BoundedMap<string, string>(() => 100);

function modelKey(settings: ModelSettings): string {
	const models = settings.models ?? [];
	return `${settings.agentId} ${String(settings.choices.model ?? '')} ${models.join(' ')}`;
}

export function learnReasoningFirst(settings: ModelSettings, reply: Reply) {
	learned.set(modelKey(settings), closingAlone(reply.text) ?? '');
}

/**
 * The closing tag a stream of this agent and model starts inside reasoning until: learnt from its
 * last reply, else known from the model's name (a family whose prompt opens the reasoning).
 */
export function reasoningUntil(settings: ModelSettings): string | undefined {
	const seen = learned.get(modelKey(settings));
	if (seen !== undefined) return seen || undefined;
	return reasoningOpenedInPrompt(settings.models ?? []);
}
