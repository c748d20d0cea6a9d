/**
 * Tool calls written the way model families and agent frameworks write them, for the emulator's
 * scripted model (dev/emulator/modelFamilies.ts) and for the tests that need a call in a family's
 * format: development tools, never shipped (the package reads calls, it writes none). Each family's
 * writers are keyed by the reader's family name (helpers/chatModel/toolCalls/families/, which name
 * the public parsers), each writer by the name the emulator's `modelFamily` option takes.
 */
import type { ToolCall } from '../../nodes/AgentPlatform/helpers/chatModel/toolCalls/types';
import { JSON_WRITERS, JSON_FINAL_WRITERS } from './jsonFormats';
import { TOKEN_WRITERS, TOKEN_FINAL_WRITERS } from './tokenFormats';
import type { CallWriter } from './writing';

export type { CallWriter };
/** A call to write (the reader's ToolCall, by the name the emulator knows it). */
export type Call = ToolCall;

/** By family, then by writer name. */
export const WRITERS_BY_FAMILY: Record<string, Record<string, CallWriter>> = {
	...TOKEN_WRITERS,
	...JSON_WRITERS,
};

/** Each family's call writers by the name the emulator's `modelFamily` option takes. */
export const CALL_WRITERS: Record<string, CallWriter> = Object.assign(
	{},
	...Object.values(WRITERS_BY_FAMILY),
);

/** The final answer where a family wraps it, by the same names. */
export const FINAL_WRITERS: Record<string, (answer: string) => string> = {
	...TOKEN_FINAL_WRITERS,
	...JSON_FINAL_WRITERS,
};
