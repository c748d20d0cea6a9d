/**
 * The emulator's stand-in behind the Agent Platform Chat Model's tools protocol (the package's
 * helpers/chatModel/, docs/chat-model.md): what it says is scriptedProse.ts'; here it is read
 * from the protocol's messages and written in the protocol's words:
 *
 * - the last user message is the question → the stand-in's turn: tool calls, or an answer;
 * - the last user message holds tools' results → a sentence from each;
 * - a correction request → the valid answer again;
 * - format instructions (n8n's Structured Output Parser, Information Extractor, Text Classifier,
 *   Sentiment Analysis) → JSON of the schema's types in a fenced block (structuredValues.ts);
 * - the instruction says which tool the answer must be given with (an AI Agent's output parser, a
 *   forced tool choice) → that tool, with the schema's empty values.
 *
 * A marker in the question asks for another answer, so that a test can take every path of the
 * reader: `[model: prose]` (prose, no call; a call on the correction request), `[model: prose
 * twice]`, `[model: sentence first]` (a sentence, then the call fenced), `[model: hermes]`,
 * `[model: cut off]` (`finish_reason: "length"`), `[model: broken json]`, `[model: unknown tool]`,
 * `[model: wrong arguments]` (each corrected on the correction request), `[model: broken twice]`.
 * With a marker and no tool the question calls for, the first tool is called. Calls and answers
 * are written in the protocol's shape, or as another model family writes them (modelFamilies.ts):
 * `[family: <name>]` in the question, else the emulator's `modelFamily`.
 */
import {
	TOOLS_PROTOCOL_MARK,
	toolCallText,
} from '../../nodes/AgentPlatform/helpers/output/protocolWords';
import { isCorrection, toolChoiceIn, toolLinesIn, toolResultsIn } from './protocolReaders';
import { contentText, type Message } from './executionInput';
import { familyAnswer, familyCalls } from './modelFamilies';
import { givenBy, noted, resultSentence, standInTurn } from './scriptedProse';
import { givenArguments, structuredValue, type Given, type Property } from './structuredValues';

interface DescribedTool {
	name: string;
	description: string;
	schema: Property;
}

export interface ScriptedAnswer {
	output: string;
	finishReason: 'stop' | 'length';
}

const MARKER = /\[model: ([a-z ]+)\]/;
const FAMILY = /\[family: ([\w+-]+)\]/;
// LangChain's StructuredOutputParser (n8n's Structured Output Parser) words its instructions so
const FORMAT = /You must format your output as a JSON value[\s\S]*?```(?:json)?\s*\n([\s\S]*?)```/;
// n8n's words in the AI Agent's system message with an output parser ("you MUST use the
// `format_final_json_response` tool"); the package's forced tool choice is read by toolChoiceIn
const MUST_USE = /must (?:use|call) (?:the )?(?:tool )?[`"]?([\w-]+)/gi;

const copy = (given: Given): Given => ({ texts: [...given.texts], numbers: [...given.numbers] });
const literal = (words: string) => words.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const unmarked = (text: string) => text.replace(MARKER, '').replace(FAMILY, '').trim();

function describedTools(instruction: string): DescribedTool[] {
	return toolLinesIn(instruction).map((line) => {
		const description =
			new RegExp(`^- ${literal(line.name)}: (.*)$`, 'm').exec(instruction)?.[1] ?? '';
		let schema: Property = {};
		try {
			schema = JSON.parse(line.schema) as Property;
		} catch {
			// described without a readable schema: called without arguments
		}
		return { name: line.name, description, schema };
	});
}

/**
 * JSON of the schema of format instructions, when the messages carry some, about the text the
 * instructions are about: the user's messages when the instructions are in the system message (as
 * n8n's Information Extractor, Text Classifier and Sentiment Analysis send them), else the words
 * before them (a Basic LLM Chain with a parser).
 */
function formatAnswer(messages: Message[]): string | undefined {
	for (const message of [...messages].reverse()) {
		const text = contentText(message.content);
		const found = FORMAT.exec(text);
		if (!found) continue;
		let schema: Property;
		try {
			schema = JSON.parse(found[1]) as Property;
		} catch {
			continue;
		}
		const before = text.slice(0, found.index).trim();
		const users = messages.filter((m) => m.role === 'user' && m !== message);
		const about =
			message.role === 'system' || !before
				? users.map((m) => contentText(m.content)).join('\n') || before
				: before;
		return `\`\`\`json\n${JSON.stringify(structuredValue(schema, about), null, 2)}\n\`\`\``;
	}
	return undefined;
}

/** The tool the instruction says the answer must be given with, if any. */
function mustUse(instruction: string, tools: DescribedTool[]): DescribedTool | undefined {
	const names = [...instruction.matchAll(MUST_USE)].map((found) => found[1]);
	const forced = toolChoiceIn(instruction);
	if (forced) names.unshift(forced);
	return tools.find((tool) => names.includes(tool.name));
}

type Call = { name: string; arguments: Record<string, unknown> };

function toolsAnswer(
	tools: DescribedTool[],
	messages: Message[],
	instruction: string,
	modelFamily: string | undefined,
): ScriptedAnswer {
	const users = messages.filter((m) => m.role === 'user').map((m) => contentText(m.content));
	const last = users[users.length - 1] ?? '';
	const asked = [...users].reverse().find((u) => !toolResultsIn(u) && !isCorrection(u)) ?? '';
	const wish = MARKER.exec(asked)?.[1];
	const family = FAMILY.exec(asked)?.[1] ?? modelFamily;
	const question = unmarked(asked);
	const answer = (output: string): ScriptedAnswer => ({ output, finishReason: 'stop' });
	const askedAt = messages.findIndex((m) => m.role === 'user' && contentText(m.content) === asked);
	const before = messages.slice(0, Math.max(0, askedAt));
	const earlier = before
		.filter((m) => m.role === 'user')
		.map((m) => contentText(m.content))
		.filter((u) => !toolResultsIn(u) && !isCorrection(u))
		.map(unmarked);
	const firstAnswer = !before.some((m) => m.role === 'assistant');
	const prose = (text: string) =>
		answer(familyAnswer(family, noted(text, firstAnswer), tools[0]?.name));
	const written = (calls: Call[]) =>
		family
			? familyCalls(family, calls)
			: calls.map((c) => toolCallText(c.name, c.arguments)).join('\n');
	const final = mustUse(instruction, tools);
	const finalCall = (about: string): Call[] =>
		final
			? [{ name: final.name, arguments: structuredValue(final.schema, about) as Call['arguments'] }]
			: [];

	if (toolResultsIn(last)) {
		const since = users.slice(users.lastIndexOf(asked) + 1).flatMap((u) => toolResultsIn(u) ?? []);
		if (final) return answer(written(finalCall(question)));
		// an AI Agent with an output parser: the final answer in the format asked
		const formatted = formatAnswer(messages);
		if (formatted !== undefined) return answer(formatted);
		return prose(since.map(({ tool, result }) => resultSentence(tool, result)).join('\n'));
	}
	const others = tools.filter((tool) => tool !== final);
	const turn = standInTurn(question, earlier, others);
	const argumentsOf = (tool: DescribedTool, given: Given): Call => ({
		name: tool.name,
		arguments: givenArguments(tool.schema, copy(given), question) as Call['arguments'],
	});
	let calls: Call[] =
		turn.kind === 'calls' ? turn.calls.map(({ tool, given }) => argumentsOf(tool, given)) : [];
	// the answer is given with the tool it must be given with, unless the question names another
	const lower = question.toLowerCase();
	if (final && !calls.some((c) => lower.includes(c.name.toLowerCase()))) calls = [];
	if (!calls.length) calls = finalCall(question);
	// a test's marker asks for a call of some kind: the first tool when the turn calls none
	if (!calls.length && (wish || FAMILY.test(asked)) && others.length)
		calls = [argumentsOf(others[0], givenBy(question))];
	if (isCorrection(last) && wish === 'prose twice')
		return answer(`I still answer without a tool: ${question}`);
	if (isCorrection(last) && wish === 'broken twice') return answer('{"tool_call": {"name": ');
	if (!calls.length) return prose(turn.kind === 'answer' ? turn.text : '');
	const valid = calls.map((c) => toolCallText(c.name, c.arguments)).join('\n');
	if (isCorrection(last)) return answer(valid);
	const first = calls[0];
	switch (wish) {
		case 'prose':
		case 'prose twice':
			return answer(
				familyAnswer(family, `I can answer that without a tool: ${question}`, tools[0]?.name),
			);
		case 'sentence first':
			return answer(
				`I'll use the ${first.name} tool to answer this.\n\`\`\`json\n${valid}\n\`\`\``,
			);
		case 'hermes':
			return answer(`<tool_call>\n${JSON.stringify(first)}\n</tool_call>`);
		case 'cut off':
			return {
				output: `I can answer that without a tool: ${question.slice(0, 12)}`,
				finishReason: 'length',
			};
		case 'broken json':
		case 'broken twice':
			return answer('{"tool_call": {"name": ');
		case 'unknown tool':
			return answer(toolCallText('no_such_tool', {}));
		case 'wrong arguments':
			// the first tool without its arguments: a schema that requires one is not met
			return answer(toolCallText(first.name, { unexpected: true }));
		default:
			return answer(written(calls));
	}
}

/** The stand-in's answer, or undefined when the request is for the agent's own output. */
export function scriptedModelAnswer(
	messages: Message[],
	{ followFormat = true, modelFamily }: { followFormat?: boolean; modelFamily?: string } = {},
): ScriptedAnswer | undefined {
	const system = messages.find((m) => m.role === 'system');
	const instruction = system ? contentText(system.content) : '';
	const at = instruction.indexOf(TOOLS_PROTOCOL_MARK);
	if (at >= 0) {
		return toolsAnswer(describedTools(instruction.slice(at)), messages, instruction, modelFamily);
	}
	const formatted = followFormat ? formatAnswer(messages) : undefined;
	return formatted === undefined ? undefined : { output: formatted, finishReason: 'stop' };
}
