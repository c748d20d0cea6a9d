/**
 * A scripted model for the Agent Platform Chat Model (the package's helpers/chatModel/, and
 * docs/chat-model.md), deterministic, so that each path can be shown to a person and tested:
 *
 * - a chat-completions request whose system message starts with the tools protocol's mark:
 *   - the last user message is the question → a call of each tool the question names, else of the
 *     tool whose name and description fit the question (scriptedProse.ts), arguments filled from
 *     the question per the tool's schema: numbers from the question's numbers in order, a string
 *     from its quoted words, else the thing it asks about, else its longest word; no call for a
 *     request for code or a question about the conversation, which it answers itself;
 *   - the last user message holds tools' results → a sentence from each result, in words;
 *   - a correction request → a valid answer, as above;
 *   - the first answer of a conversation says that a scripted stand-in answered;
 * - a request that carries format instructions (n8n's Structured Output Parser) → JSON filled in
 *   per the schema given, in a fenced block, as the instructions ask: each field with a value of
 *   its kind found in the text, else left out (fieldKinds.ts).
 *
 * A marker in the question asks for another answer, to test every path: `[model: prose]` (a final
 * answer in prose, no call; a call on the correction request), `[model: prose twice]` (prose again
 * after it), `[model: sentence first]` (a sentence, then the call fenced),
 * `[model: hermes]` (the call in `<tool_call>` tags), `[model: cut off]` (a final answer the
 * model's length limit ended: `finish_reason: "length"`), `[model: broken json]`,
 * `[model: unknown tool]`, `[model: wrong arguments]` (each corrected on the correction request),
 * `[model: broken twice]` (broken again after it).
 *
 * Calls and final answers are written in the asked shape, or the way another model family writes
 * them (modelFamilies.ts): `[family: <name>]` in the question, else the emulator's `modelFamily`.
 *
 * NOT the platform: production runs the agent's model, which was asked, not scripted, to follow it.
 */
import {
	TOOLS_PROTOCOL_MARK,
	toolCallText,
} from '../../nodes/AgentPlatform/helpers/output/protocolWords';
import { isCorrection, toolChoiceIn, toolLinesIn, toolResultsIn } from './protocolReaders';
import { contentText, type Message } from './executionInput';
import { familyAnswer, familyCalls } from './modelFamilies';
import { filled, sourceOf, valueFor, type Property } from './schemaFilling';
import {
	STAND_IN_NOTE,
	plainAnswer,
	quotedIn,
	resultSentence,
	textsOf,
	toolsCalledFor,
} from './scriptedProse';

interface DescribedTool {
	name: string;
	description: string;
	properties: Record<string, Property>;
}

export interface ScriptedAnswer {
	output: string;
	finishReason: 'stop' | 'length';
}

const MARKER = /\[model: ([a-z ]+)\]/;
const FAMILY = /\[family: ([\w+-]+)\]/;
// LangChain's StructuredOutputParser (n8n's Structured Output Parser) words its instructions so
const FORMAT = /You must format your output as a JSON value[\s\S]*?```(?:json)?\s*\n([\s\S]*?)```/;

const literal = (words: string) => words.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function describedTools(instruction: string): DescribedTool[] {
	return toolLinesIn(instruction).map((line) => {
		const description =
			new RegExp(`^- ${literal(line.name)}: (.*)$`, 'm').exec(instruction)?.[1] ?? '';
		let schema: { properties?: DescribedTool['properties'] } = {};
		try {
			schema = JSON.parse(line.schema);
		} catch {
			// described without a readable schema: called without arguments
		}
		return { name: line.name, description, properties: schema.properties ?? {} };
	});
}

function argumentsFor(tool: DescribedTool, question: string, toolNames: string[]) {
	return filled(tool.properties, sourceOf(question, textsOf(question, toolNames)));
}

/**
 * JSON that fills the schema of format instructions, when the messages carry some: read from the
 * text the instructions are about (the user's messages when they are in the system message, as
 * n8n's Information Extractor, Text Classifier and Sentiment Analysis send them; else the words
 * before them, as a Basic LLM Chain with a parser sends them).
 */
function formatAnswer(messages: Message[]): string | undefined {
	const given = [...messages].reverse();
	for (const message of given) {
		const text = contentText(message.content);
		const found = FORMAT.exec(text);
		if (!found) continue;
		let schema: Property;
		try {
			schema = JSON.parse(found[1]) as Property;
		} catch {
			continue;
		}
		const users = messages.filter((m) => m.role === 'user' && m !== message);
		const before = text
			.slice(0, found.index)
			.split(/You must format/)[0]
			.trim();
		const question =
			message.role === 'system' || !before
				? users.map((m) => contentText(m.content)).join('\n') || before
				: before;
		const value = valueFor(schema, sourceOf(question, quotedIn(question), true));
		return `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
	}
	return undefined;
}

// n8n's words in the AI Agent's system message with an output parser ("you MUST use the
// `format_final_json_response` tool"); the package's forced tool choice is read by toolChoiceIn
const MUST_USE = /must (?:use|call) (?:the )?(?:tool )?[`"]?([\w-]+)/gi;

/** The tool the instruction says the answer must be given with, if any. */
function mustUse(instruction: string, tools: DescribedTool[]): DescribedTool | undefined {
	const names = [...instruction.matchAll(MUST_USE)].map((found) => found[1]);
	const forced = toolChoiceIn(instruction);
	if (forced) names.unshift(forced);
	return tools.find((tool) => names.includes(tool.name));
}

function toolsAnswer(
	tools: DescribedTool[],
	messages: Message[],
	instruction: string,
	modelFamily: string | undefined,
): ScriptedAnswer {
	const users = messages.filter((m) => m.role === 'user').map((m) => contentText(m.content));
	const last = users[users.length - 1] ?? '';
	const asked = [...users].reverse().find((u) => !toolResultsIn(u) && !isCorrection(u));
	const wish = MARKER.exec(asked ?? '')?.[1];
	const family = FAMILY.exec(asked ?? '')?.[1] ?? modelFamily;
	const question = (asked ?? '').replace(MARKER, '').replace(FAMILY, '').trim();
	const answer = (output: string): ScriptedAnswer => ({ output, finishReason: 'stop' });
	const final = mustUse(instruction, tools);
	const toolNames = tools.map((tool) => tool.name);
	const askedAt = messages.findIndex((m) => m.role === 'user' && contentText(m.content) === asked);
	const earlier = messages
		.slice(0, Math.max(0, askedAt))
		.filter((m) => m.role === 'user')
		.map((m) => contentText(m.content))
		.filter((u) => !toolResultsIn(u) && !isCorrection(u))
		.map((u) => u.replace(MARKER, '').replace(FAMILY, '').trim());
	// the first answer of a conversation says who answered
	const firstAnswer = !messages.slice(0, Math.max(0, askedAt)).some((m) => m.role === 'assistant');
	const prose = (text: string) =>
		answer(
			familyAnswer(family, firstAnswer ? `${text}\n\n${STAND_IN_NOTE}` : text, tools[0]?.name),
		);
	if (toolResultsIn(last)) {
		const since = users
			.slice(users.lastIndexOf(asked ?? '') + 1)
			.flatMap((u) => toolResultsIn(u) ?? []);
		// the final answer through the tool it must be given with, filled from the results first
		if (final) {
			const read = `${since.map(({ result }) => result).join('\n')}\n${question}`;
			const args = filled(final.properties, sourceOf(read, textsOf(read)));
			return answer(
				family
					? familyCalls(family, [{ name: final.name, arguments: args }])
					: toolCallText(final.name, args),
			);
		}
		// an AI Agent with an output parser: the final answer in the format asked
		const formatted = formatAnswer(messages);
		if (formatted !== undefined) return answer(formatted);
		return prose(since.map(({ tool, result }) => resultSentence(tool, result)).join('\n'));
	}
	const fitting = toolsCalledFor(
		question,
		tools.filter((tool) => tool !== final),
	);
	// a test's marker asks for a call of some kind: the first tool when none fits the question
	const marked = MARKER.test(asked ?? '') || FAMILY.test(asked ?? '');
	const named = fitting.length || !marked ? fitting : tools.filter((t) => t !== final).slice(0, 1);
	// a question that names no tool is answered with the tool the answer must be given with
	const asking =
		final && !named.some((t) => question.toLowerCase().includes(t.name.toLowerCase()))
			? [final]
			: named;
	const valid = asking.length
		? asking
				.map((tool) => toolCallText(tool.name, argumentsFor(tool, question, toolNames)))
				.join('\n')
		: undefined;
	if (isCorrection(last) && wish === 'prose twice')
		return answer(`I still answer without a tool: ${question}`);
	if (isCorrection(last) && wish === 'broken twice') return answer('{"tool_call": {"name": ');
	if (valid === undefined) return prose(plainAnswer(question, earlier, tools));
	if (isCorrection(last)) return answer(valid);
	const first = asking[0];
	switch (wish) {
		case 'prose':
		case 'prose twice':
			return answer(
				familyAnswer(family, `I can answer that without a tool: ${question}`, tools[0]?.name),
			);
		case 'sentence first':
			return answer(
				`I'll use the ${first?.name} tool to answer this.\n\`\`\`json\n${valid}\n\`\`\``,
			);
		case 'hermes':
			return answer(
				`<tool_call>\n${JSON.stringify({ name: first?.name, arguments: argumentsFor(first, question, toolNames) })}\n</tool_call>`,
			);
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
			return answer(toolCallText(first?.name ?? 'none', { unexpected: true }));
		default:
			return answer(
				family && asking.length
					? familyCalls(
							family,
							asking.map((tool) => ({
								name: tool.name,
								arguments: argumentsFor(tool, question, toolNames),
							})),
						)
					: valid,
			);
	}
}

/** The scripted answer, or undefined when the request is for the agent's own output. */
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
