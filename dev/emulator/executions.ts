/**
 * Agent executions: the lifecycle engine (virtual time), POST /agents/{id}/execute (plain,
 * waiting and streamed), POST /agents/{id}/openai/chat/completions (plain and streamed) and
 * GET /agent-responses/{id}.
 *
 * Lifecycle of an execution of duration D with N pieces: `starting` at creation; piece i of the
 * output is produced at D*i/(N+1) (the first one moves the record to `running`; the record's
 * output grows piece by piece); at D the record becomes `succeeded` with the full output and
 * credits (or `failed` with `error` for a failing agent), and webhook deliveries start.
 */
import { randomBytes } from 'node:crypto';
import { findAgent } from './agents';
import { mediaFor } from './media';
import {
	DEFAULT_TEMPERATURE,
	applyDefaults,
	checkExecuteRoles,
	checkProductionAnswer,
	optionValues,
} from './agentForm';
import type { TimerHandle } from './clock';
import type { Core } from './core';
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
import { checkMemoryCollections, memoryCollectionsNote, takeScriptedOutput } from './runExtras';
import { isFunctionCallingRequest, scriptedToolCall } from './toolCalling';
import type { StoredAgent, StoredResponse } from './types';

/** The 100 s wait of wait_execution, in virtual seconds. */
export const WAIT_TIMEOUT_SECONDS = 100;
export const MAX_FILES_PER_EXECUTION = 5;
// `system` passes the schema check and is then refused with production's words (agentForm.ts).
const EXECUTE_ROLES = ['system', 'user', 'assistant', 'developer'];
const OPENAI_ROLES = ['system', 'user', 'assistant'];

export type ExecEvent = { type: 'piece'; text: string } | { type: 'running' } | { type: 'end' };

export class Execution {
	readonly listeners = new Set<(e: ExecEvent) => void>();
	finished = false;
	private readonly doneWaiters: Array<() => void> = [];

	constructor(
		readonly record: StoredResponse,
		readonly agent: StoredAgent,
		readonly pieces: string[],
		readonly failMessage: string | null,
		readonly duration: number,
	) {}

	emit(e: ExecEvent): void {
		for (const l of [...this.listeners]) {
			try {
				l(e);
			} catch {
				/* a broken listener must not stop the execution */
			}
		}
		if (e.type === 'end') {
			this.finished = true;
			for (const w of this.doneWaiters.splice(0)) w();
		}
	}

	onDone(cb: () => void): void {
		if (this.finished) cb();
		else this.doneWaiters.push(cb);
	}
}

/** Public wire form of an Agent response. */
export function responseJson(r: StoredResponse) {
	return {
		id: r.id,
		status: r.status,
		input: r.input,
		output: r.output,
		error: r.error,
		credits: r.credits,
		root_id: r.root_id,
		created_at: r.created_at,
		updated_at: r.updated_at,
		template_id: r.template_id,
		// image and video agents: what they produced (production's shape is not public; see media.ts)
		...(r.generated_files
			? {
					generated_files: r.generated_files.map((f) =>
						f && typeof f === 'object' ? { ...f } : f,
					),
				}
			: {}),
	};
}

/** Wire form of one streamed event (spec: no `input`). */
function streamEvent(
	r: StoredResponse,
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

export function creditsFor(output: string): number {
	return Math.round((0.5 + 0.01 * output.length) * 100) / 100;
}

/** Splits text into at most n non-empty consecutive pieces whose concatenation is the text. */
export function splitPieces(text: string, n: number): string[] {
	const count = Math.max(1, Math.min(n, text.length));
	if (text.length === 0) return [];
	const out: string[] = [];
	const size = text.length / count;
	for (let i = 0; i < count; i++)
		out.push(text.slice(Math.round(i * size), Math.round((i + 1) * size)));
	return out.filter((p) => p.length > 0);
}

export class ExecutionEngine {
	readonly running = new Map<number, Execution>();
	private readonly timers = new Set<TimerHandle>();

	constructor(private readonly core: Core) {}

	start(
		agent: StoredAgent,
		input: string,
		answers: Record<string, unknown>,
		opts: { rootId: number | null; fileIds: number[]; via: StoredResponse['via']; subject: string },
	): Execution {
		const core = this.core;
		const cfg = core.agentConfig.get(agent.id) ?? {};
		const duration = Math.max(0, cfg.executionSeconds ?? core.opts.executionSeconds);
		const eventsWanted = Math.max(1, Math.floor(cfg.streamEvents ?? 8));
		const failMessage =
			typeof cfg.fail === 'string' && cfg.fail !== ''
				? cfg.fail
				: cfg.fail === true
					? 'The agent execution failed.'
					: cfg.fail === false
						? null
						: (agent.failMessage ?? null);
		const output =
			takeScriptedOutput(cfg) ?? cfg.output ?? `Echo from ${agent.title}: ${opts.subject}`;

		const id = core.nextId('response');
		const now = core.clock.isoMicro();
		const record: StoredResponse = {
			id,
			status: 'starting',
			input,
			output: '',
			error: null,
			credits: null,
			root_id: opts.rootId ?? id,
			created_at: now,
			updated_at: now,
			template_id: agent.id,
			answers,
			fileIds: opts.fileIds,
			via: opts.via,
		};
		core.state.responses.set(id, record);
		core.executionCount++;

		const pieces = failMessage ? [] : splitPieces(output, eventsWanted);
		const exec = new Execution(record, agent, pieces, failMessage, duration);
		this.running.set(id, exec);

		// Steps at virtual times; chained so only one timer is pending per execution.
		const steps: Array<{ at: number; run: () => void }> = [];
		const touch = () => {
			record.updated_at = core.clock.isoMicro();
		};
		if (failMessage) {
			steps.push({
				at: duration / 2,
				run: () => {
					record.status = 'running';
					touch();
					exec.emit({ type: 'running' });
				},
			});
		} else {
			pieces.forEach((piece, i) => {
				steps.push({
					at: (duration * (i + 1)) / (pieces.length + 1),
					run: () => {
						record.status = 'running';
						record.output += piece;
						touch();
						exec.emit({ type: 'piece', text: piece });
					},
				});
			});
		}
		steps.push({
			at: duration,
			run: () => {
				if (failMessage) {
					record.status = 'failed';
					record.error = failMessage;
					record.output = '';
					record.credits = 0;
				} else {
					record.status = 'succeeded';
					record.output = output;
					record.credits = creditsFor(output);
					if (cfg.generatedFiles) record.generated_files = cfg.generatedFiles;
					else {
						const media = mediaFor(agent.type);
						if (media && core.storage) {
							record.generated_files = [
								{
									name: media.name,
									url: core.storage.generatedUrl(record.id, media.name),
									mime_type: media.mimeType,
									size: media.bytes.length,
								},
							];
						}
					}
				}
				touch();
				this.running.delete(id);
				exec.emit({ type: 'end' });
				core.webhooks.deliverFor(record);
			},
		});

		let elapsed = 0;
		const runFrom = (i: number) => {
			if (i >= steps.length || core.stopped) return;
			const step = steps[i];
			const delay = Math.max(0, step.at - elapsed);
			const h = core.clock.after(delay, () => {
				this.timers.delete(h);
				elapsed = step.at;
				step.run();
				runFrom(i + 1);
			});
			this.timers.add(h);
		};
		runFrom(0);
		return exec;
	}

	/** Resolves when the execution ends or after `virtualSeconds`, whichever comes first. */
	wait(exec: Execution, virtualSeconds: number): Promise<void> {
		return new Promise((resolve) => {
			if (exec.finished) return resolve();
			let settled = false;
			const h = this.core.clock.after(virtualSeconds, () => {
				this.timers.delete(h);
				if (!settled) {
					settled = true;
					resolve();
				}
			});
			this.timers.add(h);
			exec.onDone(() => {
				if (settled) return;
				settled = true;
				this.core.clock.cancel(h);
				this.timers.delete(h);
				resolve();
			});
		});
	}

	stop(): void {
		for (const h of this.timers) this.core.clock.cancel(h);
		this.timers.clear();
	}
}

// ---------------------------------------------------------------------------------------------
// Validation helpers

interface Message {
	role: string;
	content: unknown;
}

function validateMessages(value: unknown, roles: string[], field = 'messages'): Message[] {
	if (!Array.isArray(value)) throw validation(field, `The ${field} field must be an array.`);
	value.forEach((m, i) => {
		if (!m || typeof m !== 'object' || Array.isArray(m)) {
			throw validation(`${field}.${i}`, `The ${field}.${i} field must be an array.`);
		}
		const role = (m as Record<string, unknown>).role;
		if (!isPresent(role))
			throw validation(`${field}.${i}.role`, `The ${field}.${i}.role field is required.`);
		if (typeof role !== 'string' || !roles.includes(role)) {
			throw validation(`${field}.${i}.role`, `The selected ${field}.${i}.role is invalid.`);
		}
		const content = (m as Record<string, unknown>).content;
		if (content === undefined || content === null) {
			throw validation(`${field}.${i}.content`, `The ${field}.${i}.content field is required.`);
		}
		if (typeof content !== 'string' && !Array.isArray(content)) {
			throw validation(
				`${field}.${i}.content`,
				`The ${field}.${i}.content field must be a string.`,
			);
		}
	});
	return value as Message[];
}

function contentText(content: unknown): string {
	if (typeof content === 'string') return content;
	if (Array.isArray(content)) {
		return content
			.map((p) =>
				p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string'
					? (p as { text: string }).text
					: '',
			)
			.filter(Boolean)
			.join(' ');
	}
	return '';
}

function lastUserMessage(messages: Message[]): string {
	for (let i = messages.length - 1; i >= 0; i--) {
		if (messages[i].role === 'user') return contentText(messages[i].content);
	}
	return messages.length ? contentText(messages[messages.length - 1].content) : '';
}

export function selectValue(v: unknown): string | null {
	if (typeof v === 'string') return v;
	if (typeof v === 'number' && Number.isFinite(v)) return String(v);
	return null;
}

/** Validates one answer against its question; returns the normalized value. */
function checkAnswer(agent: StoredAgent, name: string, value: unknown): unknown {
	const q = agent.questions.find((x) => x.name === name);
	if (!q) return value;
	if (value === undefined || value === null) return value;
	const production = checkProductionAnswer(q, value);
	if (production) return production.value;
	switch (q.type) {
		case 'number': {
			if (typeof value === 'number' && Number.isFinite(value)) return value;
			if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
				return Number(value);
			throw validation(name, `The ${name} field must be a number.`);
		}
		case 'array':
			if (!Array.isArray(value)) throw validation(name, `The ${name} field must be an array.`);
			return value;
		case 'text':
			if (typeof value !== 'string' && typeof value !== 'number')
				throw validation(name, `The ${name} field must be a string.`);
			return String(value);
		default:
			return value;
	}
}

function checkFileIds(ctx: Ctx, value: unknown): number[] {
	if (value === undefined || value === null) return [];
	if (!Array.isArray(value)) throw validation('file_ids', 'The file ids field must be an array.');
	if (value.length > MAX_FILES_PER_EXECUTION) {
		throw validation(
			'file_ids',
			`The file ids field must not have more than ${MAX_FILES_PER_EXECUTION} items.`,
		);
	}
	return value.map((v, i) => {
		const id = typeof v === 'number' ? v : typeof v === 'string' ? parseId(v) : null;
		if (id === null || !Number.isInteger(id) || !ctx.core.state.files.has(id)) {
			throw validation(`file_ids.${i}`, `The selected file_ids.${i} is invalid.`);
		}
		return id;
	});
}

function checkRootId(ctx: Ctx, agent: StoredAgent, value: unknown): number | null {
	if (value === undefined || value === null || value === '') return null;
	const id = typeof value === 'number' ? value : typeof value === 'string' ? parseId(value) : null;
	const root = id === null ? undefined : ctx.core.state.responses.get(id);
	if (!root || root.template_id !== agent.id)
		throw validation('root_id', 'The selected root id is invalid.');
	return root.root_id;
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
	const exec = core.engine.start(agent, input, answers, {
		rootId,
		fileIds,
		via: stream ? 'stream' : 'execute',
		subject,
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

// ---------------------------------------------------------------------------------------------
// GET /agent-responses/{id}

export function getResponse(ctx: Ctx): Reply {
	const id = parseId(ctx.params.id);
	const r = id === null ? undefined : ctx.core.state.responses.get(id);
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
	// Function definitions in `tools` (n8n's AI Agent): a scripted model answers, see toolCalling.ts.
	if (isFunctionCallingRequest(body)) return scriptedToolCall(ctx, body);

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
	const exec = core.engine.start(agent, subject, answers, {
		rootId: null,
		fileIds: [],
		via: 'openai',
		subject,
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
				const chunk = (delta: Record<string, unknown>, finish: string | null) =>
					JSON.stringify({
						id,
						object: 'chat.completion.chunk',
						created,
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
							sink.send(chunk({}, 'stop'));
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
				finish_reason: 'stop',
			},
		],
		usage: {
			prompt_tokens: promptTokens,
			completion_tokens: completionTokens,
			total_tokens: promptTokens + completionTokens,
		},
	});
}
