/**
 * The execution endpoints: POST /agents/{id}/execute (plain, waiting and streamed),
 * POST /agents/{id}/openai/chat/completions (plain and streamed) and GET /agent-responses/{id}.
 * The runs themselves are runEngine.ts's; the body checks are executionInput.ts's.
 */
import { randomBytes } from 'node:crypto';
import { findAgent } from './agents';
import {
	DEFAULT_TEMPERATURE,
	applyDefaults,
	checkExecuteRoles,
	checkProductionAnswer,
	optionValues,
} from './agentForm';
import {
	checkAnswer,
	checkFileIds,
	checkRootId,
	contentText,
	lastUserMessage,
	selectValue,
	validateMessages,
} from './executionInput';
import type { Message } from './executionInput';
import {
	HttpError,
	bodyObject,
	isPresent,
	json,
	notFound,
	parseId,
	required,
	truthy,
	validation,
} from './http';
import type { Ctx, Reply, SseSink } from './http';
import { checkMemoryCollections, memoryCollectionsNote } from './memoryCollectionsOnRuns';
import { responseJson } from './runEngine';
import { askModel, ModelEndpointError } from './modelEndpoint';
import { takeScriptedReply } from './scriptedReplies';
import { earlierUserMessages, filesSeenWords, seenWords, sessionMessages } from './sessionSeen';
import type { ExecEvent } from './runEngine';
import { scriptedModelAnswer } from './toolsProtocolModel';
import type { StoredRun } from './types';

/** The 100 s wait of wait_execution, in virtual seconds. */
export const WAIT_TIMEOUT_SECONDS = 100;
// `system` passes the schema check and is then refused with production's words (agentForm.ts).
const EXECUTE_ROLES = ['system', 'user', 'assistant', 'developer'];
const OPENAI_ROLES = ['system', 'user', 'assistant'];

/** Wire form of one streamed event (spec: no `input`). */
function streamEvent(
	r: StoredRun,
	status: string,
	output: string,
	credits: number | null,
	error: string | null,
): string {
	return JSON.stringify({
		id: r.id,
		status,
		output,
		error,
		credits,
		root_id: r.root_id,
		created_at: r.created_at,
		updated_at: r.updated_at,
		template_id: r.template_id,
	});
}

// ---------------------------------------------------------------------------------------------
// POST /agents/{id}/execute

export async function execute(ctx: Ctx): Promise<Reply> {
	const core = ctx.core;
	const agent = findAgent(ctx, ctx.params.id);
	const body = bodyObject(ctx);

	let answersIn: Record<string, unknown> = {};
	if (body.answers !== undefined && body.answers !== null) {
		if (typeof body.answers !== 'object' || Array.isArray(body.answers))
			throw validation('answers', 'The answers field must be an array.');
		answersIn = body.answers as Record<string, unknown>;
	}
	// Effective answers: the agent's question names at the top level, overridden by `answers`.
	const answers: Record<string, unknown> = {};
	for (const q of agent.questions) {
		if (body[q.name] !== undefined) answers[q.name] = body[q.name];
	}
	Object.assign(answers, answersIn);
	if (body.messages !== undefined && answers.messages === undefined)
		answers.messages = body.messages;

	applyDefaults(agent, answers, required);
	for (const q of agent.questions) answers[q.name] = checkAnswer(agent, q.name, answers[q.name]);
	for (const k of Object.keys(answers)) if (answers[k] === undefined) delete answers[k];

	let messages: Message[] = [];
	if (answers.messages !== undefined && answers.messages !== null) {
		messages = validateMessages(answers.messages, EXECUTE_ROLES);
		checkExecuteRoles(messages);
	}
	if (agent.type === 'chat' && messages.length === 0) throw required('messages');

	const fileIds = checkFileIds(ctx, body.file_ids ?? answers.file_ids);
	const rootId = checkRootId(ctx, agent, body.root_id ?? answers.root_id);
	const stream = truthy(body.stream);
	const wait = truthy(body.wait_execution) || truthy(body.waitExecution);

	if (stream && agent.type !== 'chat') {
		throw validation('stream', 'The stream field is only supported for chat agents.');
	}

	const { messages: _m, root_id: _r, ...rest } = answers;
	void _m;
	void _r;
	const memoryCollections = checkMemoryCollections(ctx, body.memory_collections);
	const subject =
		(messages.length ? lastUserMessage(messages) : JSON.stringify(rest)) +
		memoryCollectionsNote(ctx, memoryCollections);
	const input = messages.length ? lastUserMessage(messages) : JSON.stringify(answers);
	const cfg = core.agentConfig.get(agent.id);
	const asked =
		core.opts.model && agent.type === 'chat' && !cfg?.outputs?.length && cfg?.output === undefined
			? await modelAnswer(ctx, {
					messages: sessionMessages(core.state, rootId, messages),
					temperature: Number(answers.temperature ?? DEFAULT_TEMPERATURE),
					stream: false,
				})
			: undefined;
	const exec = core.engine.start(agent, input, answers, {
		output: asked?.output,
		failMessage: asked?.failMessage,
		rootId,
		fileIds,
		via: stream ? 'stream' : 'execute',
		subject,
		seen:
			seenWords(earlierUserMessages(core.state, rootId, messages)) +
			filesSeenWords(core.state, fileIds),
	});
	exec.record.memoryCollections = memoryCollections;

	if (stream) {
		return {
			kind: 'sse',
			status: 200,
			start(sink: SseSink) {
				const r = exec.record;
				const listener = (e: ExecEvent) => {
					if (sink.closed) return;
					if (e.type === 'piece') sink.send(streamEvent(r, 'running', e.text, null, null));
					else if (e.type === 'running') sink.send(streamEvent(r, 'running', '', null, null));
					else {
						exec.listeners.delete(listener);
						const words = core.faults.executeStreamError;
						if (words) sink.send(JSON.stringify({ error: words }));
						else if (r.status === 'failed')
							sink.send(streamEvent(r, 'failed', '', r.credits, r.error));
						else sink.send(streamEvent(r, 'completed', '', r.credits, null));
						sink.end();
					}
				};
				exec.listeners.add(listener);
				sink.onClose(() => exec.listeners.delete(listener));
			},
		};
	}

	if (wait) await core.engine.wait(exec, WAIT_TIMEOUT_SECONDS);
	return json(200, { template_id: agent.id, responses: [responseJson(exec.record)] });
}

/** The model endpoint's answer, or the words of its failure (a failed run). */
async function modelAnswer(
	ctx: Ctx,
	body: Record<string, unknown>,
): Promise<{ output?: string; failMessage?: string; finishReason: 'stop' | 'length' }> {
	try {
		const answer = await askModel(ctx, ctx.core.opts.model!, body);
		return {
			output: answer.content,
			finishReason: answer.finishReason === 'length' ? 'length' : 'stop',
		};
	} catch (e) {
		if (!(e instanceof ModelEndpointError)) throw e;
		return { failMessage: e.message, finishReason: 'stop' };
	}
}

// ---------------------------------------------------------------------------------------------
// GET /agent-responses/{id}

export function getResponse(ctx: Ctx): Reply {
	const id = parseId(ctx.params.id);
	const r = id === null ? undefined : ctx.core.state.runs.get(id);
	if (!r) throw notFound('Agent response not found');
	return json(200, responseJson(r));
}

// ---------------------------------------------------------------------------------------------
// POST /agents/{id}/openai/chat/completions

function openAiId(): string {
	return `chatcmpl-${randomBytes(12).toString('hex')}`;
}

function approxTokens(s: string): number {
	return Math.max(1, Math.ceil(s.length / 4));
}

export async function chatCompletions(ctx: Ctx): Promise<Reply> {
	const core = ctx.core;
	const agent = findAgent(ctx, ctx.params.id);
	if (agent.type !== 'chat')
		throw validation('model', 'Chat completions are only available for chat agents.');
	const body = bodyObject(ctx);
	if (!isPresent(body.messages)) throw required('messages');
	const messages = validateMessages(body.messages, OPENAI_ROLES);

	const optionsOf = (name: string) =>
		optionValues(agent.questions.find((q) => q.name === name)?.options);
	const choose = (name: string, value: unknown): string => {
		const opts = optionsOf(name);
		if (value === undefined || value === null) return opts[0];
		const s = selectValue(value);
		if (s === null || !opts.includes(s)) throw validation(name, `The selected ${name} is invalid.`);
		return s;
	};
	const model = choose('model', body.model);
	const temperatureQuestion = agent.questions.find((q) => q.name === 'temperature');
	const temperature =
		body.temperature === undefined || body.temperature === null || !temperatureQuestion
			? DEFAULT_TEMPERATURE
			: String(checkProductionAnswer(temperatureQuestion, body.temperature)?.value);
	const tools = choose('tools', body.tools);
	const stream = truthy(body.stream);

	const answers = { temperature, model, tools, messages };
	const subject = lastUserMessage(messages);
	// a test's own outputs for the agent come before the model endpoint
	const cfg = core.agentConfig.get(agent.id);
	const configured = !!cfg?.outputs?.length || cfg?.output !== undefined;
	// the model endpoint, when there is one, is asked what the stand-in would answer
	const scripted =
		takeScriptedReply(cfg) ??
		(core.opts.model && !configured
			? await modelAnswer(ctx, { messages, temperature: Number(temperature), stream: false })
			: scriptedModelAnswer(messages));
	const finishReason = scripted?.finishReason ?? 'stop';
	const exec = core.engine.start(agent, subject, answers, {
		rootId: null,
		fileIds: [],
		via: 'openai',
		subject,
		output: scripted?.output,
		failMessage: scripted && 'failMessage' in scripted ? scripted.failMessage : undefined,
		seen: seenWords(earlierUserMessages(core.state, null, messages)),
	});
	const id = openAiId();
	const created = Math.floor(core.clock.nowMs() / 1000);
	const promptTokens = approxTokens(messages.map((m) => contentText(m.content)).join('\n'));

	if (stream) {
		return {
			kind: 'sse',
			status: 200,
			start(sink: SseSink) {
				let first = true;
				// production's chunks carry no id, object or created (docs/platform-assumptions.md)
				const chunk = (delta: Record<string, unknown>, finish: string | null) =>
					JSON.stringify({
						model,
						system_fingerprint: null,
						choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
					});
				const listener = (e: ExecEvent) => {
					if (sink.closed) return;
					if (e.type === 'piece') {
						sink.send(
							chunk(first ? { role: 'assistant', content: e.text } : { content: e.text }, null),
						);
						first = false;
					} else if (e.type === 'end') {
						exec.listeners.delete(listener);
						const r = exec.record;
						if (r.status === 'failed') {
							sink.send(
								JSON.stringify({
									error: {
										message: r.error,
										type: 'server_error',
										param: null,
										code: 'agent_failed',
									},
								}),
							);
						} else {
							if (first) sink.send(chunk({ role: 'assistant', content: '' }, null));
							sink.send(chunk({}, finishReason));
						}
						sink.send('[DONE]');
						sink.end();
					}
				};
				exec.listeners.add(listener);
				sink.onClose(() => exec.listeners.delete(listener));
			},
		};
	}

	await new Promise<void>((resolve) => exec.onDone(resolve));
	const r = exec.record;
	if (r.status === 'failed') {
		throw new HttpError(500, {
			error: { message: r.error, type: 'server_error', param: null, code: 'agent_failed' },
		});
	}
	const completionTokens = approxTokens(r.output);
	return json(200, {
		id,
		object: 'chat.completion',
		created,
		model,
		system_fingerprint: null,
		choices: [
			{
				index: 0,
				message: { role: 'assistant', content: r.output, refusal: null },
				logprobs: null,
				finish_reason: finishReason,
			},
		],
		usage: {
			prompt_tokens: promptTokens,
			completion_tokens: completionTokens,
			total_tokens: promptTokens + completionTokens,
		},
	});
}
