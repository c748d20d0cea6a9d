/**
 * Calls between a family's special tokens, as they appear when a serving stack passes them on as
 * text: Mistral v11's `[TOOL_CALLS]add{…}` (or `[TOOL_CALLS]add[ARGS]{…}`), DeepSeek V3 / V3.1's
 * `<｜tool▁call▁begin｜>` sections (full-width bars; the arguments fenced in V3), Kimi K2's
 * `<|tool_call_begin|>functions.add:0<|tool_call_argument_begin|>{…}<|tool_call_end|>`, and
 * OpenAI harmony's `to=functions.add … <|message|>{…}<|call|>`.
 */
import { parseLoose } from './looseJson';
import type { WrittenCall } from './types';

/** The JSON object right at `at` (spaces and a fence allowed before it), and where it ends. */
function objectAt(text: string, at: number): { value: unknown; end: number } | undefined {
	const open = /^\s*(?:```(?:json)?\s*)?/.exec(text.slice(at))![0].length;
	if (text[at + open] !== '{') return undefined;
	const parsed = parseLoose(text, at + open);
	if (!parsed) return undefined;
	const close = /^\s*(?:```)?/.exec(text.slice(parsed.end))![0].length;
	return { value: parsed.value, end: parsed.end + close };
}

function mistralCalls(text: string): WrittenCall[] {
	const calls: WrittenCall[] = [];
	for (const match of text.matchAll(
		/\[TOOL_CALLS\]\s*([A-Za-z_][\w.-]*)\s*(?:\[CALL_ID\][\w-]*)?\s*(?:\[ARGS\])?/g,
	)) {
		const args = objectAt(text, match.index + match[0].length);
		const end = args?.end ?? match.index + match[0].length;
		calls.push({ start: match.index, end, name: match[1], arguments: args?.value ?? {} });
	}
	return calls;
}

const BAR = '[|｜]';
const SEP = '▁';
const token = (words: string) => `<${BAR}${words.split(' ').join(SEP)}${BAR}>`;
const DEEPSEEK_CALL = new RegExp(
	`${token('tool call begin')}([\\s\\S]*?)(?:${token('tool call end')}|$)`,
	'g',
);
const DEEPSEEK_SEP = new RegExp(token('tool sep'));

function deepseekCalls(text: string): WrittenCall[] {
	return [...text.matchAll(DEEPSEEK_CALL)].map((match) => {
		const parts = match[1].split(DEEPSEEK_SEP);
		// V3: `function<sep>name\n```json\n{…}\n```` ; V3.1: `name<sep>{…}`
		const [name, args] =
			parts[0].trim() === 'function' && parts.length > 1
				? [parts[1].split('\n')[0], parts[1].slice(parts[1].indexOf('\n') + 1)]
				: [parts[0], parts.slice(1).join('')];
		const parsed = objectAt(args, 0);
		return {
			start: match.index,
			end: match.index + match[0].length,
			name: name.trim(),
			arguments: parsed ? parsed.value : args.trim(),
		};
	});
}

function kimiCalls(text: string): WrittenCall[] {
	const pattern =
		/<\|tool_call_begin\|>\s*([^<\s]+)\s*<\|tool_call_argument_begin\|>([\s\S]*?)(?:<\|tool_call_end\|>|$)/g;
	return [...text.matchAll(pattern)].map((match) => ({
		start: match.index,
		end: match.index + match[0].length,
		name: match[1],
		arguments: match[2].trim(),
	}));
}

function harmonyCalls(text: string): WrittenCall[] {
	const pattern =
		/(?:<\|start\|>\s*assistant\s*)?(?:<\|channel\|>\s*commentary\s*)?to=([\w.:-]+)[^<]*(?:<\|(?:channel|constrain)\|>[^<]*)*<\|message\|>([\s\S]*?)(?:<\|call\|>|<\|end\|>|$)/g;
	return [...text.matchAll(pattern)].map((match) => ({
		start: match.index,
		end: match.index + match[0].length,
		name: match[1],
		arguments: match[2].trim(),
	}));
}

export function tokenCalls(text: string): WrittenCall[] {
	if (!/\[TOOL_CALLS\]|<[|｜]|to=/.test(text)) return [];
	return [...mistralCalls(text), ...deepseekCalls(text), ...kimiCalls(text), ...harmonyCalls(text)];
}
