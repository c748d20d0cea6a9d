/**
 * The emulator's stand-in behind POST /agents/{id}/openai/chat/completions for OpenAI clients that
 * send function definitions in `tools` (n8n's AI Agent with its OpenAI Chat Model pointed at the
 * emulator). What it says is scriptedProse.ts' (docs/emulator.md); here it is written as the OpenAI
 * chat-completion schema writes it, plain and streamed (`stream: true`): calls as `tool_calls`
 * (`finish_reason: "tool_calls"`), a sentence from each tool's result, or an answer (`"stop"`).
 *
 * NOT part of the platform's contract: the platform documents `tools` as a string naming one of
 * the agent's tools (docs/platform-assumptions.md) and nothing about function calling; with such an
 * array the emulator answers without running the agent.
 */
import { randomBytes } from 'node:crypto';
import { contentText as text } from './executionInput';
import { json, validation } from './http';
import type { Ctx, Reply, SseSink } from './http';
import { noted, resultSentence, standInTurn } from './scriptedProse';
import { givenArguments, type Property } from './structuredValues';

const TOOL_ROLES = ['system', 'developer', 'user', 'assistant', 'tool'];

interface FunctionTool {
	name: string;
	description?: string;
	parameters: Property;
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

type Definition = {
	type?: unknown;
	function?: { name?: unknown; description?: unknown; parameters?: unknown };
};

function functionTools(value: unknown[]): FunctionTool[] {
	return value.map((tool, i) => {
		const fn = (tool as Definition | null)?.function;
		if (
			(tool as Definition | null)?.type !== 'function' ||
			typeof fn?.name !== 'string' ||
			!fn.name
		)
			throw validation(
				`tools.${i}`,
				`The tools.${i} field must be a function definition with a name.`,
			);
		const parameters = (
			fn.parameters && typeof fn.parameters === 'object' ? fn.parameters : {}
		) as Property;
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
	const earlier = messages
		.slice(0, lastUser)
		.filter((m) => m.role === 'user')
		.map((m) => text(m.content));
	const turn = results.length === 0 ? standInTurn(question, earlier, tools) : undefined;
	if (turn?.kind === 'calls') {
		const calls = turn.calls.map(({ tool, given }) => ({
			id: `call_${randomBytes(8).toString('hex')}`,
			type: 'function',
			function: {
				name: tool.name,
				arguments: JSON.stringify(givenArguments(tool.parameters, given, question)),
			},
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
		const answered = turn?.kind === 'answer' ? turn.text : said.join('\n');
		// the first answer of a conversation says who answered
		const first = !messages.slice(0, lastUser).some((m) => m.role === 'assistant');
		message = { role: 'assistant', content: noted(answered, first), refusal: null };
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
