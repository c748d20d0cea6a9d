/**
 * A reply settled into what the model answers: read for tool calls, with one correction round
 * for a call that cannot be used (or, when the tool choice is forced, for an answer that does not
 * call that tool), and what its reasoning teaches the next streams of the same agent and model.
 */
import { NodeOperationError } from 'n8n-workflow';

import { BoundedMap } from '../../transport/boundedMap';
import type { PlatformContext } from '../../transport/types';
import { requestReply, usageSum, type ModelSettings, type Reply } from './platformCalls';
import type { PlatformMessage } from './platformMessages';
import { readToolsAnswer, type BoundTool, type ToolsAnswer } from './toolCallReader';
import { closingAlone, reasoningOpenedInPrompt, splitReasoning } from './toolCalls/reasoning';
import { toolsCorrection } from './toolsProtocol';

type Settled = Exclude<ToolsAnswer, { kind: 'malformed' }>;

/**
 * The agents and models whose replies began inside reasoning opened in their prompt (only a
 * closing `</think>` came), by agent and model, with that tag: their later streams show nothing
 * until it comes, so that the reasoning before it never reaches the chat; a reply without it
 * forgets the model again. A hundred at most.
 */
const reasoningFirst = new BoundedMap<string, string>(() => 100);

function modelKey(settings: ModelSettings): string {
	return `${settings.agentId} ${String(settings.choices.model ?? '')}`;
}

function learnReasoningFirst(settings: ModelSettings, reply: Reply) {
	const closing = closingAlone(reply.text);
	if (closing) reasoningFirst.set(modelKey(settings), closing);
	else reasoningFirst.delete(modelKey(settings));
}

/**
 * The closing tag a stream of this agent and model starts inside reasoning until: learnt from its
 * earlier replies, or known from the model's name (a family whose prompt opens the reasoning).
 */
export function reasoningUntil(settings: ModelSettings): string | undefined {
	return reasoningFirst.get(modelKey(settings)) ?? reasoningOpenedInPrompt(settings.models ?? []);
}

/** Why the answer cannot be used, if it cannot: a broken call, or no call of the forced tool. */
function unusable(answer: ToolsAnswer, forced: string | undefined): string | undefined {
	if (answer.kind === 'malformed') return answer.problem;
	if (!forced || (answer.kind === 'calls' && answer.calls.some((c) => c.name === forced)))
		return undefined;
	if (answer.kind === 'final') return `it answered in plain text instead of calling "${forced}"`;
	const called = answer.calls.map((call) => `"${call.name}"`).join(', ');
	return `it called ${called} instead of "${forced}"`;
}

function failure(ctx: PlatformContext, problem: string, forced: string | undefined) {
	if (forced)
		return new NodeOperationError(
			ctx.getNode(),
			`The platform's model did not call the tool "${forced}" it was told to call`,
			{
				description: `n8n asked for a structured answer (as the Evaluation node's metrics and other structured output do), given by calling the tool "${forced}". Asked twice, ${problem}. Try another Model of the agent, or see "n8n's AI features" in the package's docs/chat-model.md.`,
			},
		);
	return new NodeOperationError(
		ctx.getNode(),
		"The platform's model did not call the tool in the shape it was asked for",
		{
			description: `Asked twice, its answer could not be read as a tool call: ${problem}. Try another Model of the agent, or see "Tools" in the package's docs/chat-model.md.`,
		},
	);
}

/**
 * Reads the reply for tool calls, asking once more when it cannot be used; `forced`: the tool the
 * answer must call (LangChain's withStructuredOutput), for which prose is no answer.
 */
export async function settle(
	ctx: PlatformContext,
	settings: ModelSettings,
	sent: PlatformMessage[],
	reply: Reply,
	tools: BoundTool[],
	forced?: string,
): Promise<{ answer: Settled; reply: Reply }> {
	learnReasoningFirst(settings, reply);
	if (!tools.length) {
		const { reasoning, text } = splitReasoning(reply.text);
		return { answer: { kind: 'final', text, ...(reasoning ? { reasoning } : {}) }, reply };
	}
	const first = readToolsAnswer(reply.text, tools);
	const problem = unusable(first, forced);
	if (!problem) return { answer: first as Settled, reply };
	const corrected = await requestReply(ctx, settings, [
		...sent,
		{ role: 'assistant', content: reply.text },
		{ role: 'user', content: toolsCorrection(problem, tools, forced) },
	]);
	const second = readToolsAnswer(corrected.text, tools);
	// the answer is the correction's: its id and finish, both requests' usage
	const both = { ...corrected, usage: usageSum(reply.usage, corrected.usage) };
	const still = unusable(second, forced);
	if (!still) return { answer: second as Settled, reply: both };
	throw failure(ctx, still, forced);
}
