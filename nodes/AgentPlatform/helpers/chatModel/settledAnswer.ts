/**
 * A reply settled into what the model answers: read for tool calls, with one correction round
 * for an unmistakable attempt at a call that cannot be used (or, when the tool choice is forced,
 * for an answer that does not call that tool). Without a forced tool, no reading fails the agent
 * or replaces the answer: when the correction brings no usable call, the first answer is the final
 * one, in the model's own words, with a note for the run data.
 */
import { NodeOperationError } from 'n8n-workflow';

import type { PlatformContext } from '../../transport/types';
import { learnReasoningFirst } from './learnedReasoning';
import { requestReply, usageSum, type ModelSettings, type Reply } from './platformCalls';
import type { PlatformMessage } from './platformMessages';
import {
	familiesFor,
	readToolsAnswer,
	splitReasoning,
	type BoundTool,
	type ToolsAnswer,
} from './toolCallReader';
import { toolsCorrection } from './toolsProtocol';

type Usable = Exclude<ToolsAnswer, { kind: 'malformed' }>;

export interface Settled {
	answer: Usable;
	reply: Reply;
	/** The answer is the correction's, not the reply streamed first. */
	corrected: boolean;
	/** What the reading did, for the model's run data (response_metadata). */
	note?: string;
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

function forcedToolFailure(ctx: PlatformContext, problem: string, forced: string) {
	return new NodeOperationError(
		ctx.getNode(),
		`The platform's model did not call the tool "${forced}" it was told to call`,
		{
			description: `n8n asked for a structured answer (as the Evaluation node's metrics and other structured output do), given by calling the tool "${forced}". Asked twice, ${problem}. Try another Model of the agent, or see "n8n's AI features" in the package's docs/chat-model.md.`,
		},
	);
}

/** The reply as its final answer, reasoning beside it. */
function asFinal(reply: Reply): Usable {
	const { reasoning, text } = splitReasoning(reply.text);
	return { kind: 'final', text, ...(reasoning ? { reasoning } : {}) };
}

/**
 * Reads the reply for tool calls, asking once more when it is an attempt at a call that cannot be
 * used; `forced`: the tool the answer must call (LangChain's withStructuredOutput), for which
 * prose is no answer.
 */
export async function settle(
	ctx: PlatformContext,
	settings: ModelSettings,
	sent: PlatformMessage[],
	reply: Reply,
	tools: BoundTool[],
	forced?: string,
): Promise<Settled> {
	learnReasoningFirst(settings, reply);
	if (!tools.length) return { answer: asFinal(reply), reply, corrected: false };
	const families = familiesFor(settings.models);
	const first = readToolsAnswer(reply.text, tools, families);
	const problem = unusable(first, forced);
	if (!problem) return { answer: first as Usable, reply, corrected: false };
	const correction = await requestReply(ctx, settings, [
		...sent,
		{ role: 'assistant', content: reply.text },
		{ role: 'user', content: toolsCorrection(problem, tools, forced) },
	]);
	const second = readToolsAnswer(correction.text, tools, families);
	const usage = usageSum(reply.usage, correction.usage);
	const still = unusable(second, forced);
	// the correction's answer: its id and finish, both requests' usage
	if (!still && (forced || second.kind === 'calls'))
		return { answer: second as Usable, reply: { ...correction, usage }, corrected: true };
	if (forced) throw forcedToolFailure(ctx, still ?? problem, forced);
	const note = `Read as an attempt at a tool call (${problem}); asked once more, the model gave no usable call (${still ?? 'a plain answer'}), so its first answer is the final answer.`;
	return { answer: asFinal(reply), reply: { ...reply, usage }, corrected: false, note };
}
