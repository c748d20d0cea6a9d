/**
 * A scripted tool-calling model behind POST /agents/{id}/openai/chat/completions, for tests of
 * n8n's AI Agent (whose OpenAI Chat Model needs function calling) against the emulator.
 *
 * NOT part of the platform's contract: the platform documents `tools` as a string naming one of
 * the agent's tools (docs/platform-assumptions.md) and nothing about function calling. OpenAI clients such as
 * LangChain's ChatOpenAI send `tools` as an array of function definitions instead; with such an
 * array the emulator answers like a deterministic model, without running the agent:
 *
 * - no `tool` message after the last user message → it calls the first function, every string
 *   argument set to the last user message (numbers 1, booleans false, others null), with
 *   `finish_reason: "tool_calls"`;
 * - otherwise → it answers `Here is what <function> said: <tool results>` (`finish_reason: "stop"`).
 *
 * Plain and streamed (`stream: true`) answers follow the OpenAI chat-completion schema.
 */
import { randomBytes } from 'node:crypto';
import { json, validation } from './http';
import type { Ctx, Reply, SseSink } from './http';

const TOOL_ROLES = ['system', 'developer', 'user', 'assistant', 'tool'];

interface FunctionTool {
	name: string;
	parameters: { properties?: Record<string, { type?: string | string[] }>; required?: string[] };
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
			tool as { type?: unknown; function?: { name?: unknown; parameters?: unknown } } | null
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
		return { name: fn.name, parameters };
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

function argumentsFor(tool: FunctionTool, userText: string): Record<string, unknown> {
	const args: Record<string, unknown> = {};
	for (const [name, schema] of Object.entries(tool.parameters.properties ?? {})) {
		const type = Array.isArray(schema?.type) ? schema.type[0] : schema?.type;
		args[name] =
			type === 'string'
				? userText
				: type === 'number' || type === 'integer'
					? 1
					: type === 'boolean'
						? false
						: null;
	}
	return args;
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
	if (results.length === 0 && tools.length > 0) {
		const tool = tools[0];
		const call = {
			id: `call_${randomBytes(8).toString('hex')}`,
			type: 'function',
			function: {
				name: tool.name,
				arguments: JSON.stringify(argumentsFor(tool, text(messages[lastUser]?.content))),
			},
		};
		message = { role: 'assistant', content: null, tool_calls: [call] };
		finish = 'tool_calls';
	} else {
		const called = new Map<string, string>();
		for (const m of messages)
			for (const c of m.tool_calls ?? []) called.set(c.id, c.function?.name ?? 'the tool');
		const said = results.map(
			(r) =>
				`Here is what ${called.get(r.tool_call_id ?? '') ?? 'the tool'} said: ${text(r.content)}`,
		);
		message = {
			role: 'assistant',
			content: said.join('\n') || `You said: ${text(messages[lastUser]?.content)}`,
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
