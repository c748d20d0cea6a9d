/**
 * Calls written as XML: `<invoke name="add"><parameter name="a">2</parameter></invoke>` (inside
 * `<function_calls>`, MiniMax's `<minimax:tool_call>` or alone), the older
 * `<invoke><tool_name>add</tool_name><parameters><a>2</a></parameters></invoke>`, Qwen3-Coder's
 * and Seed-OSS's `<function=add><parameter=a>2</parameter></function>`, GLM's
 * `<tool_call>add<arg_key>a</arg_key><arg_value>2</arg_value></tool_call>`, and LangChain's XML
 * agent (`<tool>add</tool><tool_input>…</tool_input>`, the closing tag often cut by its stop word).
 * Parameter values are texts, typed from the tool's schema.
 */
import type { WrittenCall } from './types';

const unquote = (name: string) => name.trim().replace(/^["']|["']$/g, '');

function pairs(body: string, pattern: RegExp): Record<string, string> {
	const args: Record<string, string> = {};
	for (const match of body.matchAll(pattern)) args[unquote(match[1])] = match[2];
	return args;
}

function invokeCalls(text: string): WrittenCall[] {
	// Step-3 writes them with a namespace: <steptml:invoke name="…">
	const pattern =
		/<(?:\w+:)?invoke\s+name\s*=\s*["']([^"']+)["']\s*>([\s\S]*?)(?:<\/(?:\w+:)?invoke>|$)/g;
	const named = [...text.matchAll(pattern)].map((match) => ({
		start: match.index,
		end: match.index + match[0].length,
		name: match[1],
		arguments: pairs(
			match[2],
			/<(?:\w+:)?parameter\s+name\s*=\s*(["'][^"']+["'])\s*>([\s\S]*?)<\/(?:\w+:)?parameter>/g,
		),
		xml: true,
	}));
	const older =
		/<invoke>\s*<tool_name>([^<]+)<\/tool_name>\s*(?:<parameters>([\s\S]*?)<\/parameters>)?/g;
	const legacy = [...text.matchAll(older)].map((match) => ({
		start: match.index,
		end: match.index + match[0].length,
		name: match[1].trim(),
		arguments: pairs(match[2] ?? '', /<([\w-]+)>([\s\S]*?)<\/\1>/g),
		xml: true,
	}));
	return [...named, ...legacy];
}

/** Qwen3-Coder's parameters, or Llama 3.1's `<function=add>{"a": 2}</function>` with JSON. */
function functionTagCalls(text: string): WrittenCall[] {
	const pattern = /<function=([^>\s]+)\s*>([\s\S]*?)(?:<\/function>|$)/g;
	return [...text.matchAll(pattern)].map((match) => {
		const json = !match[2].includes('<parameter=');
		return {
			start: match.index,
			end: match.index + match[0].length,
			name: unquote(match[1]),
			arguments: json
				? match[2].trim()
				: pairs(match[2], /<parameter=([^>]+)>([\s\S]*?)(?:<\/parameter>|(?=<parameter=)|$)/g),
			xml: !json,
		};
	});
}

function glmCalls(text: string): WrittenCall[] {
	const pattern =
		/<tool_call>\s*([\w.:-]+)\s*((?:<arg_key>[\s\S]*?<\/arg_value>\s*)*)<\/tool_call>/g;
	return [...text.matchAll(pattern)].map((match) => ({
		start: match.index,
		end: match.index + match[0].length,
		name: match[1],
		arguments: pairs(
			match[2],
			/<arg_key>\s*([\s\S]*?)\s*<\/arg_key>\s*<arg_value>([\s\S]*?)<\/arg_value>/g,
		),
		xml: true,
	}));
}

function xmlAgentCalls(text: string): WrittenCall[] {
	const pattern = /<tool>\s*([^<]+?)\s*<\/tool>\s*(?:<tool_input>([\s\S]*?)(?:<\/tool_input>|$))?/g;
	return [...text.matchAll(pattern)].map((match) => ({
		start: match.index,
		end: match.index + match[0].length,
		name: match[1],
		arguments: (match[2] ?? '').trim(),
	}));
}

export function xmlCalls(text: string): WrittenCall[] {
	if (!text.includes('<')) return [];
	return [
		...invokeCalls(text),
		...functionTagCalls(text),
		...glmCalls(text),
		...xmlAgentCalls(text),
	];
}

/** LangChain's XML agent finishing: `<final_answer>…</final_answer>`. */
export function xmlFinalAnswer(text: string): string | undefined {
	return /<final_answer>([\s\S]*?)(?:<\/final_answer>|$)/.exec(text)?.[1].trim();
}
