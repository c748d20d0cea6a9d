/** The reader's words: the tools n8n bound, the calls read, what an answer is, and a family of call formats. */
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

/** `reasoning`: what the model thought before answering, taken out of the answer. */
export type ToolsAnswer =
	| { kind: 'calls'; prose: string; calls: ToolCall[]; reasoning?: string }
	| { kind: 'final'; text: string; reasoning?: string }
	| { kind: 'malformed'; problem: string; reasoning?: string };

/**
 * A call as written, found by one family's reader: where it lies in the text, the name and the
 * arguments as written. `xml`: the arguments are texts, typed from the tool's schema.
 */
export interface WrittenCall {
	start: number;
	end: number;
	/**
	 * Where the call's whole block begins, where its family opens the block before the call itself
	 * (Kimi's section token, `<function_calls>` around invokes): the prose before the call ends
	 * there. By default `start` (a marker, or the fence around JSON, is where the call starts).
	 */
	blockStart?: number;
	name: unknown;
	arguments: unknown;
	xml?: boolean;
	/**
	 * Call-shaped JSON with no marker and a name that is no bound tool: data (a list of builds with
	 * `name` and `arguments`) unless the answer also calls a bound tool.
	 */
	mayBeData?: boolean;
}

/**
 * Where an opening without a marker stands: `whole`, at the answer's start (a fenced block: the
 * whole answer), where any language's block and bare calls may be a call; else after the prose a
 * family writes before a call, where a fenced block counts only in a family's own fence or wrapper.
 */
export interface OpeningPlace {
	whole: boolean;
}

/**
 * A family's reasoning, as vLLM registers one reasoning parser per format: the tags around it,
 * the models whose prompt opens it (only the closing tag comes), or channels of special tokens.
 */
export interface ReasoningFormat {
	/** [opening, closing] of each tag pair its models write around reasoning. */
	tags?: Array<[string, string]>;
	/** Models whose chat template opens the reasoning in the prompt: the reply starts inside it. */
	openedInPrompt?: RegExp;
	channels?: {
		/** For the stream: [opening, closing] of reasoning, the tokens around the answer skipped, and
		 * the tokens pending with or without tools. */
		reasoning: Array<[string, string]>;
		wrappers: string[];
		tokens: string[];
		/** The whole reply without its reasoning channels, each one's text pushed to `thoughts`. */
		takeOut(reply: string, thoughts: string[]): string;
		/** The answer out of its final channel. */
		unwrap(answer: string): string;
	};
}

/**
 * A family of call formats, as a serving stack registers one tool parser per family: its markers,
 * its reader (which says where each call's whole block begins), its openings in the stream, its
 * reasoning and its own rules; the core names none of them. Adding a family is adding one such
 * module to families/index.ts (and, for the emulator, its writers to dev/modelFormats/).
 */
export interface CallFamily {
	name: string;
	/** Model names known to write this family's calls (the agent's Model chooses the families). */
	models?: RegExp;
	/** What opens its calls anywhere outside code (a tag, a special token, a label). */
	markers: string[];
	/** What opens its calls where it is written in more than one way (a JSON key in any quoting). */
	markerPattern?: RegExp;
	/**
	 * Whether its markers say a call was meant even when nothing readable follows them (then the
	 * model is asked once more); false for words that prose also writes (`Action:`).
	 */
	markersMeanACall: boolean;
	/** Its calls written from `at` (where one of its markers, or an opening, stands), in order. */
	read(text: string, at: number, tools: BoundTool[]): WrittenCall[];
	/** Reads calls that open without a marker (JSON, a call list, a fenced block) at `at`. */
	readOpening?(text: string, at: number, place: OpeningPlace, tools: BoundTool[]): WrittenCall[];
	/** The final answer where the family wraps it, if the text is one. */
	readFinal?(text: string): string | undefined;
	/**
	 * The stream's verdict at one of its markers (`text` from the marker on): whether it opens a
	 * call (SGLang's `has_tool_call`); by default a tag's (families/blocks.ts's tagVerdict).
	 * `lineStart`: the marker is first on its line; `ended`: nothing more comes.
	 */
	markerVerdict?(marker: string, text: string, lineStart: boolean, ended: boolean): Verdict;
	/** The first characters of its marker pattern, and the stream's verdict where one stands. */
	patternStarts?: string;
	patternVerdict?(text: string): Verdict;
	/**
	 * The stream's verdict where a call without a marker may open (`text` from there on): `start`,
	 * at the answer's start or a fenced block's first line, where bare calls may stand.
	 */
	openingVerdict?(text: string, start: boolean, tools: BoundTool[] | undefined): Verdict;
	/** Fence languages that wrap its calls (```` ```tool_code ````): a call, not code. */
	callFences?: string[];
	/** How its special tokens end: words before its marker on a line that end so are no sentence. */
	tokenEnds?: string[];
	/** Its reasoning formats. */
	reasoning?: ReasoningFormat;
	/** Whether the calls after its markers stand as the answer, for markers prose writes too. */
	standsAlone?(text: string, calls: WrittenCall[]): boolean;
	/** Why the text at its marker `at` is an attempt at a call nothing could be read from, if it is. */
	attempt?(text: string, at: number): string | undefined;
}

/**
 * A verdict: what the stream decides at an opening from what came so far: `call` (it opens a call
 * of a bound tool, or may: the rest is pending), `text` (it cannot: shown), `undecided` (not known
 * yet: looked at again with the next piece).
 */
export type Verdict = 'call' | 'text' | 'undecided';

export const isRecord = (value: unknown): value is Record<string, unknown> =>
	!!value && typeof value === 'object' && !Array.isArray(value);
