/**
 * Tool calls written the way model families and agent frameworks write them, for the unit corpus
 * of the reader (toolCallCorpus.ts) and the benchmark: test tools, never shipped (the package
 * reads calls, it writes none). Each family's writers are keyed by the reader's family name
 * (helpers/chatModel/toolCalls/families/, which name the public parsers), each writer by its own
 * name.
 */
import type { ToolCall } from '../../../../nodes/AgentPlatform/helpers/chatModel/toolCalls/types';
import { JSON_WRITERS } from './jsonFormats';
import { TOKEN_WRITERS } from './tokenFormats';
import type { CallWriter } from './writing';

export type { CallWriter };
/** A call to write (the reader's ToolCall). */
export type Call = ToolCall;

/** By family, then by writer name. */
export const WRITERS_BY_FAMILY: Record<string, Record<string, CallWriter>> = {
	...TOKEN_WRITERS,
	...JSON_WRITERS,
};

/** Each family's call writers by their own names. */
export const CALL_WRITERS: Record<string, CallWriter> = Object.assign(
	{},
	...Object.values(WRITERS_BY_FAMILY),
);
