/**
 * Exact replies of an agent's chat completions (`replies` in its configuration), for tests of
 * what the chat model makes of a given answer: each chat completion takes the next reply, and
 * the last one stays, so a model asked again (a correction) after its last reply repeats it, as
 * a model does that meant its answer. They come before the scripted model's answers
 * (toolsProtocolModel.ts) and the agent's own output.
 */
import type { ScriptedAnswer } from './toolsProtocolModel';
import type { AgentConfig } from './types';

export type ScriptedReply = string | ScriptedAnswer;

/** The next scripted reply of the agent, if it has any. */
export function takeScriptedReply(cfg: AgentConfig | undefined): ScriptedAnswer | undefined {
	const replies = cfg?.replies;
	if (!replies?.length) return undefined;
	const reply = replies.length > 1 ? replies.shift()! : replies[0];
	return typeof reply === 'string' ? { output: reply, finishReason: 'stop' } : reply;
}
