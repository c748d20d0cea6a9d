/** The reader's words: the tools n8n bound, the calls read, and what an answer is. */
import type { JsonSchema } from '../../output/jsonValidation';

export interface BoundTool {
	name: string;
	description: string;
	schema: JsonSchema;
}

export interface ToolCall {
	name: string;
	arguments: Record<string, unknown>;
}

/** `reasoning`: what the model thought before answering, kept out of the answer. */
export type ToolsAnswer =
	| { kind: 'calls'; prose: string; calls: ToolCall[]; reasoning?: string }
	| { kind: 'final'; text: string; reasoning?: string }
	| { kind: 'malformed'; problem: string; reasoning?: string };

/**
 * A call as written, found by one format's reader: where it lies in the text, the name and the
 * arguments as written. `xml`: the arguments are texts, typed from the tool's schema.
 */
export interface WrittenCall {
	start: number;
	end: number;
	name: unknown;
	arguments: unknown;
	xml?: boolean;
	/**
	 * Call-shaped JSON with no marker of a call and a name that is no bound tool: a call only where
	 * the answer also calls a bound tool (then it is one to a tool that does not exist), else JSON.
	 */
	weak?: boolean;
}

/** A format's reader: the calls it finds in the text (reasoning already taken out). */
export type CallReader = (text: string, tools: BoundTool[]) => WrittenCall[];

export const isRecord = (value: unknown): value is Record<string, unknown> =>
	!!value && typeof value === 'object' && !Array.isArray(value);
