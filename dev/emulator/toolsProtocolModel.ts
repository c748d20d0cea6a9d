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
 * It writes calls in the protocol's own shape; a test that needs another reply states it word for
 * word (`replies` in the agent's configuration, scriptedReplies.ts).
 */
import {
	TOOLS_PROTOCOL_MARK,
	toolCallText,
} from '../../nodes/AgentPlatform/helpers/output/protocolWords';
import { isCorrection, literal, toolChoiceIn, toolLinesIn, toolResultsIn } from './protocolReaders';
import { contentText, type Message } from './executionInput';
import { noted, resultSentence, standInTurn } from './scriptedProse';
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

// LangChain's StructuredOutputParser (n8n's Structured Output Parser) words its instructions so
const FORMAT = /You must format your output as a JSON value[\s\S]*?```(?:json)?\s*\n([\s\S]*?)```/;
// n8n's words in the AI Agent's system message with an output parser ("you MUST use the
// `format_final_json_response` tool"); the package's forced tool choice is read by toolChoiceIn
const MUST_USE = /must (?:use|call) (?:the )?(?:tool )?[`"]?([\w-]+)/gi;

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

const copy = (given: Given): Given => ({ texts: [...given.texts], numbers: [...given.numbers] });

type Call = { name: string; arguments: Record<string, unknown> };

function toolsAnswer(
	tools: DescribedTool[],
	messages: Message[],
	instruction: string,
): ScriptedAnswer {
	const users = messages.filter((m) => m.role === 'user').map((m) => contentText(m.content));
	const last = users[users.length - 1] ?? '';
	const question = [...users].reverse().find((u) => !toolResultsIn(u) && !isCorrection(u)) ?? '';
	const answer = (output: string): ScriptedAnswer => ({ output, finishReason: 'stop' });
	const askedAt = messages.findIndex(
		(m) => m.role === 'user' && contentText(m.content) === question,
	);
	const before = messages.slice(0, Math.max(0, askedAt));
	const earlier = before
		.filter((m) => m.role === 'user')
		.map((m) => contentText(m.content))
		.filter((u) => !toolResultsIn(u) && !isCorrection(u));
	const firstAnswer = !before.some((m) => m.role === 'assistant');
	const written = (calls: Call[]) => calls.map((c) => toolCallText(c.name, c.arguments)).join('\n');
	const final = mustUse(instruction, tools);
	const finalCall = (about: string): Call[] =>
		final
			? [{ name: final.name, arguments: structuredValue(final.schema, about) as Call['arguments'] }]
			: [];

	if (toolResultsIn(last)) {
		const since = users
			.slice(users.lastIndexOf(question) + 1)
			.flatMap((u) => toolResultsIn(u) ?? []);
		if (final) return answer(written(finalCall(question)));
		// an AI Agent with an output parser: the final answer in the format asked
		const formatted = formatAnswer(messages);
		if (formatted !== undefined) return answer(formatted);
		return answer(
			noted(since.map(({ tool, result }) => resultSentence(tool, result)).join('\n'), firstAnswer),
		);
	}
	const others = tools.filter((tool) => tool !== final);
	const turn = standInTurn(question, earlier, others);
	let calls: Call[] =
		turn.kind === 'calls'
			? turn.calls.map(({ tool, given }) => ({
					name: tool.name,
					arguments: givenArguments(tool.schema, copy(given), question) as Call['arguments'],
				}))
			: [];
	// the answer is given with the tool it must be given with, unless the question names another
	const lower = question.toLowerCase();
	if (final && !calls.some((c) => lower.includes(c.name.toLowerCase()))) calls = [];
	if (!calls.length) calls = finalCall(question);
	if (!calls.length) return answer(noted(turn.kind === 'answer' ? turn.text : '', firstAnswer));
	return answer(written(calls));
}

/** The stand-in's answer, or undefined when the request is for the agent's own output. */
export function scriptedModelAnswer(
	messages: Message[],
	{ followFormat = true }: { followFormat?: boolean } = {},
): ScriptedAnswer | undefined {
	const system = messages.find((m) => m.role === 'system');
	const instruction = system ? contentText(system.content) : '';
	const at = instruction.indexOf(TOOLS_PROTOCOL_MARK);
	if (at >= 0) {
		return toolsAnswer(describedTools(instruction.slice(at)), messages, instruction);
	}
	const formatted = followFormat ? formatAnswer(messages) : undefined;
	return formatted === undefined ? undefined : { output: formatted, finishReason: 'stop' };
}
