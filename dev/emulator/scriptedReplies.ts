/**
 * A test's scripted answers of an agent, each taken in turn, the last one staying: `replies`, the
 * exact replies of its chat completions, for tests of what the chat model makes of a given answer
 * (a model asked again after its last reply, a correction, repeats it, as a model does that meant
 * its answer), before the scripted model's answers (toolsProtocolModel.ts) and the agent's own
 * output; `outputs`, the output of its later runs, Execute included (runEngine.ts).
 */
import type { AgentConfig } from './types';

export interface ScriptedAnswer {
	output: string;
	finishReason: 'stop' | 'length';
}

/** The next of a list of scripted answers; the last one stays. */
export const takeNext = <T>(list: T[] | undefined): T | undefined =>
	list?.length ? (list.length > 1 ? list.shift() : list[0]) : undefined;

/** The next scripted reply of the agent, if it has any. */
export function takeScriptedReply(cfg: AgentConfig | undefined): ScriptedAnswer | undefined {
	const reply = takeNext(cfg?.replies);
	return typeof reply === 'string' ? { output: reply, finishReason: 'stop' } : reply;
}
