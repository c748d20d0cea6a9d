/**
 * A scripted tool-calling model behind POST /agents/{id}/openai/chat/completions, for tests of
 * n8n's AI Agent (whose OpenAI Chat Model needs function calling) against the emulator.
 *
 * NOT part of the platform's contract: the platform documents `tools` as a string naming one of
 * the agent's tools (docs/platform-assumptions.md) and nothing about function calling. OpenAI clients such as
 * LangChain's ChatOpenAI send `tools` as an array of function definitions instead; with such an
 * array the emulator answers like a deterministic model, without running the agent:
 *
 * - no `tool` message after the last user message → it calls the function the message calls for
 *   (scriptedProse.ts: named, or fitting by its name and description), string arguments set to the
 *   message for a function that asks an agent or assistant, else to what the message asks about
 *   (numbers from the message, booleans false), with `finish_reason: "tool_calls"`; a message no
 *   function fits (a request for code, a question about the conversation) is answered in words;
 * - otherwise → a sentence from each tool's result (`finish_reason: "stop"`);
 * - the first answer of a conversation says that a scripted stand-in answered.
 *
 * Plain and streamed (`stream: true`) answers follow the OpenAI chat-completion schema.
 */
import { randomBytes } from 'node:crypto';
import { json, validation } from './http';
import type { Ctx, Reply, SseSink } from './http';
import { filled, sourceOf, type Property } from './schemaFilling';
import {
	STAND_IN_NOTE,
	plainAnswer,
	resultSentence,
	textsOf,
	toolsCalledFor,
} from './scriptedProse';

const TOOL_ROLES = ['system', 'developer', 'user', 'assistant', 'tool'];

interface FunctionTool {
	name: string;
	description?: string;
	parameters: { properties?: Record<string, Property>; required?: string[] };
}

interface ToolMessage {
	role: string;
	content: unknown;
	tool_call_id?: string;
	tool_calls?: Array<{ id: string; function?: { name?: string } }>;
}

/** Whether a chat-completions body asks for function calling (tools as OpenAI function definitions). */
export function isFunctionCallingRequest(body: Record<string, unknown>): boolean {
	return Array.isArray(body.tools);
}

function functionTools(value: unknown[]): FunctionTool[] {
	return value.map((tool, i) => {
		const fn = (
			tool as {
				type?: unknown;
				function?: { name?: unknown; description?: unknown; parameters?: unknown };
			} | null
		)?.function;
		if (
			!tool ||
			(tool as { type?: unknown }).type !== 'function' ||
			!fn ||
			typeof fn.name !== 'string' ||
			!fn.name
		) {
			throw validation(
				`tools.${i}`,
				`The tools.${i} field must be a function definition with a name.`,
			);
		}
		const parameters =
			fn.parameters && typeof fn.parameters === 'object'
				? (fn.parameters as FunctionTool['parameters'])
				: {};
		const description = typeof fn.description === 'string' ? fn.description : undefined;
		return { name: fn.name, description, parameters };
	});
}

function toolMessages(value: unknown): ToolMessage[] {
	if (!Array.isArray(value) || value.length === 0)
		throw validation('messages', 'The messages field is required.');
	return value.map((m, i) => {
		const message = m as ToolMessage | null;
		if (!message || typeof message !== 'object' || !TOOL_ROLES.includes(message.role)) {
			throw validation(`messages.${i}.role`, `The selected messages.${i}.role is invalid.`);
		}
		const hasCalls =
			message.role === 'assistant' &&
			Array.isArray(message.tool_calls) &&
			message.tool_calls.length > 0;
		if ((message.content === undefined || message.content === null) && !hasCalls) {
			throw validation(`messages.${i}.content`, `The messages.${i}.content field is required.`);
		}
		if (message.role === 'tool' && typeof message.tool_call_id !== 'string') {
			throw validation(
				`messages.${i}.tool_call_id`,
				`The messages.${i}.tool_call_id field is required.`,
			);
		}
		return message;
	});
}

function text(content: unknown): string {
	if (typeof content === 'string') return content;
	if (Array.isArray(content)) {
		return content
			.map((p) =>
				p && typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : '',
			)
			.join(' ');
	}
	return content === undefined || content === null ? '' : JSON.stringify(content);
}

// a function that hands the message on to an agent gets the whole message
const ASKS_AN_AGENT = /\b(?:agent|assistant)\b/i;

function argumentsFor(tool: FunctionTool, userText: string): Record<string, unknown> {
	const texts = ASKS_AN_AGENT.test(`${tool.name} ${tool.description ?? ''}`)
		? [userText]
		: textsOf(userText, [tool.name]);
	return filled(tool.parameters.properties ?? {}, sourceOf(userText, texts));
}

/** Answers a function-calling request (see the module comment). */
export function scriptedToolCall(ctx: Ctx, body: Record<string, unknown>): Reply {
	const tools = functionTools(body.tools as unknown[]);
	const messages = toolMessages(body.messages);
	const lastUser = messages.map((m) => m.role).lastIndexOf('user');
	const results = messages.slice(lastUser + 1).filter((m) => m.role === 'tool');
	const model = typeof body.model === 'string' ? body.model : 'emulator-tool-caller';
	const id = `chatcmpl-${randomBytes(12).toString('hex')}`;
	const created = Math.floor(ctx.core.clock.nowMs() / 1000);

	let message: Record<string, unknown>;
	let finish: 'tool_calls' | 'stop';
	const question = text(messages[lastUser]?.content);
	const fitting = results.length === 0 ? toolsCalledFor(question, tools) : [];
	if (fitting.length) {
		const calls = fitting.map((tool) => ({
			id: `call_${randomBytes(8).toString('hex')}`,
			type: 'function',
			function: { name: tool.name, arguments: JSON.stringify(argumentsFor(tool, question)) },
		}));
		message = { role: 'assistant', content: null, tool_calls: calls };
		finish = 'tool_calls';
	} else {
		const called = new Map<string, string>();
		for (const m of messages)
			for (const c of m.tool_calls ?? []) called.set(c.id, c.function?.name ?? 'the tool');
		const said = results.map((r) =>
			resultSentence(called.get(r.tool_call_id ?? ''), text(r.content)),
		);
		const earlier = messages
			.slice(0, lastUser)
			.filter((m) => m.role === 'user')
			.map((m) => text(m.content));
		const answered = said.length ? said.join('\n') : plainAnswer(question, earlier, tools);
		// the first answer of a conversation says who answered
		const first = !messages.slice(0, lastUser).some((m) => m.role === 'assistant');
		message = {
			role: 'assistant',
			content: first ? `${answered}\n\n${STAND_IN_NOTE}` : answered,
			refusal: null,
		};
		finish = 'stop';
	}
	const usage = { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 };

	if (body.stream === true || body.stream === 'true') {
		return {
			kind: 'sse',
			status: 200,
			start(sink: SseSink) {
				const chunk = (delta: Record<string, unknown>, finishReason: string | null) =>
					JSON.stringify({
						id,
						object: 'chat.completion.chunk',
						created,
						model,
						system_fingerprint: null,
						choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
					});
				if (finish === 'tool_calls') {
					const calls = (message.tool_calls as Array<Record<string, unknown>>).map((c, index) => ({
						index,
						...c,
					}));
					sink.send(chunk({ role: 'assistant', content: null, tool_calls: calls }, null));
				} else {
					sink.send(chunk({ role: 'assistant', content: message.content }, null));
				}
				sink.send(chunk({}, finish));
				sink.send('[DONE]');
				sink.end();
			},
		};
	}
	return json(200, {
		id,
		object: 'chat.completion',
		created,
		model,
		system_fingerprint: null,
		choices: [{ index: 0, message, logprobs: null, finish_reason: finish }],
		usage,
	});
}
