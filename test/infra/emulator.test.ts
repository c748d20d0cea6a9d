/**
 * Integration tests of the platform emulator (dev/emulator) over loopback with Node's fetch.
 * They pin the emulator to the platform's contract (and production's behaviour where it differs,
 * docs/platform-assumptions.md): envelopes, field sets, messages,
 * lifecycle in virtual time, streams, multipart, limits, webhooks deliveries and faults.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import NodeFormData from 'form-data';
import { PlatformEmulator, startEmulator } from '../../dev/emulator';
import type { RecordedMultipart } from '../../dev/emulator';
import { readBody, startLoopbackServer } from '../../dev/loopback';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let emu: PlatformEmulator;

beforeAll(async () => {
	emu = await startEmulator({ timeScale: 20, quiet: true });
});

afterAll(async () => {
	await emu.stop();
});

afterEach(() => {
	emu.resetFaults();
});

function headers(e: PlatformEmulator, extra: Record<string, string> = {}): Record<string, string> {
	return {
		Authorization: `Bearer ${e.apiKey}`,
		'x-workspace-id': e.workspaceId,
		Accept: 'application/json',
		...extra,
	};
}

async function call(
	path: string,
	init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
	e: PlatformEmulator = emu,
) {
	const h = headers(e, init.headers);
	let body: string | undefined;
	if (init.body !== undefined) {
		body = JSON.stringify(init.body);
		h['Content-Type'] = 'application/json';
	}
	const res = await fetch(e.url + path, {
		method: init.method ?? (body ? 'POST' : 'GET'),
		headers: h,
		body,
	});
	const text = await res.text();
	let json: Json = {};
	try {
		json = text ? JSON.parse(text) : {};
	} catch {
		/* not JSON */
	}
	return { status: res.status, json, text, headers: res.headers };
}

const keys = (o: object) => Object.keys(o).sort();
const sorted = (a: string[]) => [...a].sort();

const LARAVEL_KEYS = sorted([
	'current_page',
	'data',
	'first_page_url',
	'from',
	'last_page',
	'last_page_url',
	'links',
	'next_page_url',
	'path',
	'per_page',
	'prev_page_url',
	'to',
	'total',
]);
const AGENT_KEYS = sorted([
	'id',
	'title',
	'description',
	'long_description',
	'workspace_id',
	'visibility',
	'slug',
	'active',
	'type',
	'questions',
	'created_at',
	'updated_at',
	'created_by',
]);
const RESPONSE_KEYS = sorted([
	'id',
	'status',
	'input',
	'output',
	'error',
	'credits',
	'root_id',
	'created_at',
	'updated_at',
	'template_id',
]);
const STREAM_KEYS = sorted([
	'id',
	'status',
	'output',
	'error',
	'credits',
	'root_id',
	'created_at',
	'updated_at',
	'template_id',
]);
const FILE_KEYS = sorted(['id', 'object', 'created_at', 'bytes', 'filename', 'credits', 'status']);
const MICRO_TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const FILE_TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;

function chatBody(agent: Json, text: string, extra: Json = {}): Json {
	const q = (name: string) => agent.questions.find((x: Json) => x.name === name);
	const answers = { temperature: '0.5', model: q('model').options[0], tools: 'no-tools' };
	return { answers, ...answers, messages: [{ role: 'user', content: text }], ...extra };
}

async function firstAgent(type: string): Promise<Json> {
	const { json } = await call(`/agents?type=${type}&per_page=1`);
	const { json: agent } = await call(`/agents/${json.data[0].id}`);
	return agent;
}

/** Reads an SSE response; returns the data payloads and whether the stream ended with an error. */
async function readSse(res: Response): Promise<{ events: string[]; error: boolean }> {
	const reader = res.body!.getReader();
	const decoder = new TextDecoder();
	let buf = '';
	const events: string[] = [];
	let error = false;
	try {
		for (;;) {
			const { done, value } = await reader.read();
			if (done) break;
			buf += decoder.decode(value, { stream: true });
			let i: number;
			while ((i = buf.indexOf('\n\n')) >= 0) {
				const block = buf.slice(0, i);
				buf = buf.slice(i + 2);
				for (const line of block.split('\n'))
					if (line.startsWith('data: ')) events.push(line.slice(6));
			}
		}
	} catch {
		error = true;
	}
	return { events, error };
}

async function pollResponse(
	id: number,
	until: (r: Json) => boolean,
	e: PlatformEmulator = emu,
): Promise<Json> {
	let last: Json = {};
	for (let i = 0; i < 200; i++) {
		last = (await call(`/agent-responses/${id}`, {}, e)).json;
		if (until(last)) return last;
		await new Promise((r) => setTimeout(r, 25));
	}
	throw new Error(`response ${id} never satisfied the condition: ${JSON.stringify(last)}`);
}

// -------------------------------------------------------------------------------------------------

describe('auth and routing', () => {
	it('403 on a missing or wrong key, 422 on a missing or foreign workspace, 404 on unknown routes', async () => {
		const url = `${emu.url}/agents`;
		let res = await fetch(url, { headers: { 'x-workspace-id': emu.workspaceId } });
		expect(res.status).toBe(403);
		expect(await res.json()).toEqual({ error: 'Invalid authentication' });

		res = await fetch(url, {
			headers: { Authorization: 'Bearer nope', 'x-workspace-id': emu.workspaceId },
		});
		expect(res.status).toBe(403);
		expect(await res.json()).toEqual({ error: 'Invalid authentication' });

		res = await fetch(url, { headers: { Authorization: `Bearer ${emu.apiKey}` } });
		expect(res.status).toBe(422);
		expect(await res.json()).toEqual({ message: 'The x-workspace-id header is required.' });

		res = await fetch(url, {
			headers: { Authorization: `Bearer ${emu.apiKey}`, 'x-workspace-id': '999' },
		});
		expect(res.status).toBe(422);
		expect(await res.json()).toEqual({
			message: 'The selected workspace is invalid or you do not have access to it.',
		});

		const nf = await call('/no/such/route');
		expect(nf.status).toBe(404);
		expect(nf.json).toEqual({ message: 'Not Found' });

		expect((await call('/agents/99999')).json).toEqual({ message: 'Agent not found' });
		expect((await call('/agents/99999')).status).toBe(404);
		expect((await call('/agent-responses/abc')).status).toBe(404);
		expect((await call('/files/123456')).json).toEqual({ message: 'File not found' });
	});

	it('records every request with the status answered', async () => {
		emu.clearRequests();
		await fetch(`${emu.url}/agents?q=Chat&page=2`, {
			headers: { Authorization: 'Bearer wrong', 'x-workspace-id': '42' },
		});
		await call('/memories', { body: { memory: 'recorded' } });
		expect(emu.requests).toHaveLength(2);
		const [a, b] = emu.requests;
		expect(a).toMatchObject({
			method: 'GET',
			path: '/agents',
			query: { q: 'Chat', page: '2' },
			status: 403,
			body: null,
		});
		expect(a.headers.authorization).toBe('Bearer wrong');
		expect(typeof a.at).toBe('number');
		expect(b).toMatchObject({
			method: 'POST',
			path: '/memories',
			body: { memory: 'recorded' },
			status: 201,
		});
	});
});

describe('agents', () => {
	it('lists with the full Laravel envelope and paging math', async () => {
		const { status, json } = await call('/agents');
		expect(status).toBe(200);
		expect(keys(json)).toEqual(LARAVEL_KEYS);
		expect(json).toMatchObject({
			current_page: 1,
			per_page: 15,
			total: 40,
			last_page: 3,
			from: 1,
			to: 15,
			prev_page_url: null,
		});
		expect(json.path).toBe(`${emu.url}/agents`);
		expect(json.first_page_url).toBe(`${emu.url}/agents?page=1`);
		expect(json.next_page_url).toBe(`${emu.url}/agents?page=2`);
		expect(json.last_page_url).toBe(`${emu.url}/agents?page=3`);
		expect(json.links.map((l: Json) => l.label)).toEqual([
			'&laquo; Previous',
			'1',
			'2',
			'3',
			'Next &raquo;',
		]);
		expect(json.links[1]).toEqual({ url: `${emu.url}/agents?page=1`, label: '1', active: true });
		for (const a of json.data) {
			expect(keys(a)).toEqual(AGENT_KEYS);
			expect(a.created_at).toMatch(MICRO_TS);
			expect(a.workspace_id).toBe(42);
			expect(a.visibility).toBe('public');
			expect(a.active).toBe(1);
		}

		const p3 = (await call('/agents?page=3&per_page=15')).json;
		expect(p3).toMatchObject({ current_page: 3, from: 31, to: 40, next_page_url: null });
		expect(p3.prev_page_url).toBe(`${emu.url}/agents?per_page=15&page=2`);
		expect(p3.data).toHaveLength(10);

		const empty = (await call('/agents?page=9')).json;
		expect(empty).toMatchObject({ current_page: 9, from: null, to: null, total: 40, data: [] });

		const many = (await call('/agents?per_page=1&page=20')).json;
		expect(many.last_page).toBe(40);
		expect(many.links.map((l: Json) => l.label)).toEqual([
			'&laquo; Previous',
			'1',
			'2',
			'...',
			'17',
			'18',
			'19',
			'20',
			'21',
			'22',
			'23',
			'...',
			'39',
			'40',
			'Next &raquo;',
		]);
		expect(many.links[3]).toEqual({ url: null, label: '...', active: false });
		expect(many.links.find((l: Json) => l.active).url).toBe(`${emu.url}/agents?per_page=1&page=20`);

		const capped = (await call('/agents?per_page=500')).json;
		expect(capped.per_page).toBe(100);
		expect(capped.data).toHaveLength(40);
		expect(capped.last_page).toBe(1);
	});

	it('filters by type and q (title, description, long description; case-insensitive)', async () => {
		const counts: Record<string, number> = {};
		for (const type of ['chat', 'image', 'text', 'video']) {
			const { json } = await call(`/agents?type=${type}&per_page=100`);
			counts[type] = json.total;
			expect(json.data.every((a: Json) => a.type === type)).toBe(true);
			expect(json.first_page_url).toBe(`${emu.url}/agents?type=${type}&per_page=100&page=1`);
		}
		for (const n of Object.values(counts)) expect(n).toBeGreaterThanOrEqual(4);
		expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(40);

		const q = (await call('/agents?q=ALWAYS%20fails')).json;
		expect(q.total).toBe(1);
		expect(q.data[0]).toMatchObject({ title: 'Always Fails', type: 'text' });
		const byLong = (await call('/agents?q=failure%20handling')).json;
		expect(byLong.data.map((a: Json) => a.title)).toEqual(['Always Fails']);
		const byDescription = (await call('/agents?q=creates%20images&type=image')).json;
		expect(byDescription.total).toBeGreaterThanOrEqual(4);
	});

	it('gives chat agents the spec questions with per-agent models and tools; others have their own', async () => {
		const chats = (await call('/agents?type=chat&per_page=100')).json.data as Json[];
		const a = chats[0];
		expect(a.questions.map((q: Json) => [q.name, q.type, q.required])).toEqual([
			['temperature', 'select', true],
			['model', 'select', true],
			['tools', 'select', true],
			['root_id', 'number', false],
			['messages', 'array', true],
		]);
		expect(a.questions[0].options).toEqual(['0', '0.25', '0.5', '0.75', '1']);
		expect(a.questions[2].options).toContain('no-tools');
		expect('options' in a.questions[3]).toBe(false);
		const modelSets = new Set(chats.map((c) => JSON.stringify(c.questions[1].options)));
		expect(modelSets.size).toBeGreaterThan(1);
		for (const q of a.questions)
			expect(keys(q)).toEqual(
				sorted(
					q.type === 'select'
						? ['type', 'name', 'description', 'required', 'options']
						: ['type', 'name', 'description', 'required'],
				),
			);

		const image = await firstAgent('image');
		const types = new Set(image.questions.map((q: Json) => q.type));
		expect([...types].sort()).toEqual(['array', 'number', 'select', 'text']);
		expect(image.questions.some((q: Json) => q.required)).toBe(true);
		expect(image.questions.some((q: Json) => !q.required)).toBe(true);
	});
});

describe('executions', () => {
	it('execute without wait answers `starting`, then the record runs to `succeeded`', async () => {
		const agent = await firstAgent('chat');
		const before = emu.executionCount;
		const { status, json } = await call(`/agents/${agent.id}/execute`, {
			body: chatBody(agent, 'Tell me a story about loopback sockets'),
		});
		expect(status).toBe(200);
		expect(keys(json)).toEqual(['responses', 'template_id']);
		expect(json.template_id).toBe(agent.id);
		const r = json.responses[0];
		expect(keys(r)).toEqual(RESPONSE_KEYS);
		expect(r).toMatchObject({
			status: 'starting',
			output: '',
			error: null,
			template_id: agent.id,
			input: 'Tell me a story about loopback sockets',
		});
		expect(r.root_id).toBe(r.id);
		expect(r.created_at).toMatch(MICRO_TS);
		expect(emu.executionCount).toBe(before + 1);

		const done = await pollResponse(r.id, (x) => x.status === 'succeeded');
		expect(done.output).toBe(`Echo from ${agent.title}: Tell me a story about loopback sockets`);
		expect(done.credits).toBeGreaterThan(0);
		expect(keys(done)).toEqual(RESPONSE_KEYS);
	});

	it('execute with wait (either spelling) answers the finished record; root_id continues a session', async () => {
		const agent = await firstAgent('chat');
		const first = await call(`/agents/${agent.id}/execute`, {
			body: chatBody(agent, 'hi', { waitExecution: true }),
		});
		expect(first.json.responses[0].status).toBe('succeeded');
		const rootId = first.json.responses[0].id;
		const second = await call(`/agents/${agent.id}/execute`, {
			body: chatBody(agent, 'again', {
				wait_execution: true,
				waitExecution: true,
				root_id: rootId,
			}),
		});
		expect(second.json.responses[0]).toMatchObject({ status: 'succeeded', root_id: rootId });
		expect(second.json.responses[0].id).not.toBe(rootId);

		const bad = await call(`/agents/${agent.id}/execute`, {
			body: chatBody(agent, 'x', { root_id: 999999 }),
		});
		expect(bad.status).toBe(422);
	});

	it('non-chat agents take answers at the top level or in `answers`; the failing agent ends `failed`', async () => {
		const text = (await call('/agents?type=text&per_page=100')).json.data.find(
			(a: Json) => a.title !== 'Always Fails',
		);
		const ok = await call(`/agents/${text.id}/execute`, {
			body: { topic: 'cats', answers: { tone: 'casual' }, wait_execution: true },
		});
		expect(ok.json.responses[0].status).toBe('succeeded');
		expect(JSON.parse(ok.json.responses[0].input)).toEqual({ topic: 'cats', tone: 'casual' });

		const fails = (await call('/agents?q=Always%20Fails')).json.data[0];
		const r = await call(`/agents/${fails.id}/execute`, {
			body: { answers: { topic: 'x', tone: 'formal' }, wait_execution: true },
		});
		expect(r.json.responses[0].status).toBe('failed');
		expect(typeof r.json.responses[0].error).toBe('string');
		expect(r.json.responses[0].error.length).toBeGreaterThan(0);
	});

	it('validates required answers, select options, roles, file ids', async () => {
		const agent = await firstAgent('chat');
		const body = chatBody(agent, 'x');
		delete body.model;
		delete body.answers.model;
		// production: model, tools and temperature are optional, the agent's own defaults apply
		let r = await call(`/agents/${agent.id}/execute`, { body: { ...body, wait_execution: true } });
		expect(r.status).toBe(200);
		expect(emu.state.responses.get(r.json.responses[0].id)!.answers.model).toBe(
			agent.questions[1].options[0],
		);

		// any temperature from 0 to 2 (production's docs), sent as text
		r = await call(`/agents/${agent.id}/execute`, {
			body: {
				...chatBody(agent, 'x'),
				answers: { ...chatBody(agent, 'x').answers, temperature: '0.3' },
				temperature: '0.3',
			},
		});
		expect(r.status).toBe(200);
		r = await call(`/agents/${agent.id}/execute`, {
			body: {
				...chatBody(agent, 'x'),
				answers: { ...chatBody(agent, 'x').answers, temperature: '3' },
				temperature: '3',
			},
		});
		expect(r.status).toBe(422);
		expect(r.json.errors).toHaveProperty('temperature');

		r = await call(`/agents/${agent.id}/execute`, {
			body: { ...chatBody(agent, 'x'), messages: [{ role: 'wizard', content: 'x' }] },
		});
		expect(r.status).toBe(422);
		expect(Object.keys(r.json.errors)[0]).toMatch(/^messages\.0\.role$/);

		r = await call(`/agents/${agent.id}/execute`, {
			body: {
				...chatBody(agent, 'x'),
				messages: [
					{ role: 'developer', content: 'be brief' },
					{ role: 'user', content: 'x' },
				],
				wait_execution: true,
			},
		});
		expect(r.status).toBe(200);

		r = await call(`/agents/${agent.id}/execute`, {
			body: { ...chatBody(agent, 'x'), file_ids: [1, 2, 3, 4, 5, 6] },
		});
		expect(r.status).toBe(422);
		expect(r.json.errors).toHaveProperty('file_ids');
		r = await call(`/agents/${agent.id}/execute`, {
			body: { ...chatBody(agent, 'x'), file_ids: [987654] },
		});
		expect(r.status).toBe(422);
	});

	it('time-scaled long run: the 100 s wait answers `running`, the record later succeeds', async () => {
		const slow = await startEmulator({ timeScale: 100, executionSeconds: 150, quiet: true });
		try {
			const { json: list } = await call('/agents?type=chat', {}, slow);
			const agent = (await call(`/agents/${list.data[0].id}`, {}, slow)).json;
			const t0 = Date.now();
			const r = await call(
				`/agents/${agent.id}/execute`,
				{ body: chatBody(agent, 'long job', { wait_execution: true }) },
				slow,
			);
			const elapsed = Date.now() - t0;
			expect(elapsed).toBeGreaterThanOrEqual(900);
			expect(elapsed).toBeLessThan(1400);
			expect(r.json.responses[0].status).toBe('running');
			const done = await pollResponse(
				r.json.responses[0].id,
				(x) => x.status === 'succeeded',
				slow,
			);
			expect(done.credits).toBeGreaterThan(0);
			const created = Date.parse(done.created_at);
			const updated = Date.parse(done.updated_at);
			expect(updated - created).toBeGreaterThanOrEqual(149_000);
		} finally {
			await slow.stop();
		}
	});

	it('streams SSE deltas and a final `completed` event with numeric credits', async () => {
		const agent = await firstAgent('chat');
		const res = await fetch(`${emu.url}/agents/${agent.id}/execute`, {
			method: 'POST',
			headers: headers(emu, { 'Content-Type': 'application/json', Accept: 'text/event-stream' }),
			body: JSON.stringify(chatBody(agent, 'stream me something long enough', { stream: true })),
		});
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
		const { events, error } = await readSse(res);
		expect(error).toBe(false);
		const parsed = events.map((e) => JSON.parse(e));
		expect(parsed.length).toBe(9);
		const last = parsed[parsed.length - 1];
		const deltas = parsed.slice(0, -1);
		for (const e of parsed) expect(keys(e)).toEqual(STREAM_KEYS);
		for (const e of deltas)
			expect(e).toMatchObject({ status: 'running', credits: null, error: null });
		expect(last).toMatchObject({ status: 'completed', output: '', error: null });
		expect(typeof last.credits).toBe('number');
		const text = deltas.map((e) => e.output).join('');
		expect(text).toBe(`Echo from ${agent.title}: stream me something long enough`);
		const record = (await call(`/agent-responses/${last.id}`)).json;
		expect(record).toMatchObject({ status: 'succeeded', output: text, credits: last.credits });
	});

	it('a cut stream keeps running in the background; polling returns everything', async () => {
		emu.setFaults({ cutStreamAfterEvents: 2 });
		const agent = await firstAgent('chat');
		emu.clearRequests();
		const res = await fetch(`${emu.url}/agents/${agent.id}/execute`, {
			method: 'POST',
			headers: headers(emu, { 'Content-Type': 'application/json' }),
			body: JSON.stringify(chatBody(agent, 'cut me off please', { stream: true })),
		});
		const { events, error } = await readSse(res);
		expect(events).toHaveLength(2);
		expect(error).toBe(true);
		const id = JSON.parse(events[0]).id;
		const done = await pollResponse(id, (x) => x.status === 'succeeded');
		expect(done.output).toBe(`Echo from ${agent.title}: cut me off please`);
	});

	it('a silent stream stops writing but stays open', async () => {
		emu.setFaults({ silentStreamAfterEvents: 1 });
		const agent = await firstAgent('chat');
		const ac = new AbortController();
		const res = await fetch(`${emu.url}/agents/${agent.id}/execute`, {
			method: 'POST',
			headers: headers(emu, { 'Content-Type': 'application/json' }),
			body: JSON.stringify(chatBody(agent, 'silence', { stream: true })),
			signal: ac.signal,
		});
		const reader = res.body!.getReader();
		const first = await reader.read();
		expect(new TextDecoder().decode(first.value)).toMatch(/^data: /);
		const id = JSON.parse(new TextDecoder().decode(first.value).slice(6)).id;
		await pollResponse(id, (x) => x.status === 'succeeded');
		const next = await Promise.race([
			reader.read().then(() => 'data'),
			new Promise((r) => setTimeout(() => r('silent'), 200)),
		]);
		expect(next).toBe('silent');
		ac.abort();
		await reader.cancel().catch(() => undefined);
	});

	it('openai chat completions: plain object, streamed chunks ending with [DONE], validation', async () => {
		const agent = await firstAgent('chat');
		const model = agent.questions.find((q: Json) => q.name === 'model').options[0];
		const base = `/agents/${agent.id}/openai/chat/completions`;
		const before = emu.executionCount;
		const plain = await call(base, {
			body: {
				model,
				temperature: 0.5,
				tools: 'no-tools',
				messages: [
					{ role: 'system', content: 'be nice' },
					{ role: 'user', content: 'hello openai' },
				],
			},
		});
		expect(plain.status).toBe(200);
		expect(plain.json.id).toMatch(/^chatcmpl-/);
		expect(plain.json).toMatchObject({
			object: 'chat.completion',
			model,
			choices: [
				{
					index: 0,
					message: { role: 'assistant', content: `Echo from ${agent.title}: hello openai` },
					finish_reason: 'stop',
				},
			],
		});
		expect(typeof plain.json.created).toBe('number');
		expect(plain.json.usage.total_tokens).toBe(
			plain.json.usage.prompt_tokens + plain.json.usage.completion_tokens,
		);
		expect(emu.executionCount).toBe(before + 1);

		const res = await fetch(emu.url + base, {
			method: 'POST',
			headers: headers(emu, { 'Content-Type': 'application/json' }),
			body: JSON.stringify({
				model,
				stream: true,
				messages: [{ role: 'user', content: 'stream openai' }],
			}),
		});
		const { events } = await readSse(res);
		expect(events[events.length - 1]).toBe('[DONE]');
		const chunks = events.slice(0, -1).map((e) => JSON.parse(e));
		expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
		expect(chunks[0].choices[0].delta.role).toBe('assistant');
		expect(chunks[chunks.length - 1].choices[0]).toMatchObject({
			finish_reason: 'stop',
			delta: {},
		});
		expect(chunks.map((c) => c.choices[0].delta.content ?? '').join('')).toBe(
			`Echo from ${agent.title}: stream openai`,
		);

		const badModel = await call(base, {
			body: { model: 'not-a-model', messages: [{ role: 'user', content: 'x' }] },
		});
		expect(badModel.status).toBe(422);
		expect(badModel.json.errors).toHaveProperty('model');
		const badRole = await call(base, {
			body: { model, messages: [{ role: 'developer', content: 'x' }] },
		});
		expect(badRole.status).toBe(422);
	});
});

describe('files', () => {
	const content = Buffer.from('hello multipart world\n'.repeat(100));
	const sha = createHash('sha256').update(content).digest('hex');

	it('parses uploads identically from form-data and from native FormData/Blob', async () => {
		const name = 'résumé notes.txt';
		emu.clearRequests();

		const fd1 = new NodeFormData();
		fd1.append('process', 'true');
		fd1.append('file', content, { filename: name, contentType: 'text/plain' });
		const r1 = await fetch(`${emu.url}/files`, {
			method: 'POST',
			headers: { ...headers(emu), ...fd1.getHeaders() },
			body: fd1.getBuffer(),
		});

		const fd2 = new FormData();
		fd2.append('process', 'true');
		fd2.append('file', new Blob([content], { type: 'text/plain' }), name);
		const r2 = await fetch(`${emu.url}/files`, {
			method: 'POST',
			headers: headers(emu),
			body: fd2,
		});

		expect(r1.status).toBe(200);
		expect(r2.status).toBe(200);
		const f1 = (await r1.json()) as Json;
		const f2 = (await r2.json()) as Json;
		for (const f of [f1, f2]) {
			expect(keys(f)).toEqual(FILE_KEYS);
			expect(f).toMatchObject({
				object: 'file',
				bytes: content.length,
				filename: name,
				credits: 0,
				status: 'waiting',
			});
			expect(f.created_at).toMatch(FILE_TS);
		}
		const [b1, b2] = emu.requests.map((r) => r.body as RecordedMultipart);
		expect(b1).toEqual(b2);
		expect(b1).toEqual({
			fields: { process: 'true' },
			files: [
				{
					field: 'file',
					filename: name,
					mimeType: 'text/plain',
					bytes: content.length,
					sha256: sha,
				},
			],
		});
		expect(emu.state.files.get(f1.id)!.content!.equals(content)).toBe(true);

		const processed = await (async () => {
			for (let i = 0; i < 100; i++) {
				const f = (await call(`/files/${f1.id}`)).json;
				if (f.status === 'completed') return f;
				await new Promise((r) => setTimeout(r, 20));
			}
			throw new Error('never processed');
		})();
		expect(processed.credits).toBeGreaterThan(0);
	});

	it('rejects a second file, a bad extension and a missing file with 422', async () => {
		const two = new FormData();
		two.append('file', new Blob(['a']), 'a.txt');
		two.append('file', new Blob(['b']), 'b.txt');
		let r = await fetch(`${emu.url}/files`, { method: 'POST', headers: headers(emu), body: two });
		expect(r.status).toBe(422);

		const exe = new FormData();
		exe.append('file', new Blob(['MZ']), 'tool.exe');
		r = await fetch(`${emu.url}/files`, { method: 'POST', headers: headers(emu), body: exe });
		expect(r.status).toBe(422);
		const j = (await r.json()) as Json;
		expect(j.message).toMatch(/^The file must be a file of type: txt, doc, docx, csv, pdf, /);
		expect(j.errors.file).toEqual([j.message]);

		const none = new FormData();
		none.append('process', 'false');
		r = await fetch(`${emu.url}/files`, { method: 'POST', headers: headers(emu), body: none });
		expect(r.status).toBe(422);
		expect(((await r.json()) as Json).message).toBe('The file field is required.');
	});

	/** Streams a multipart upload of `total` bytes; stops sending once the emulator has answered. */
	async function postBigFile(
		server: PlatformEmulator,
		total: number,
	): Promise<{ status: number; body: string }> {
		const boundary = '----emulator-test-boundary';
		const head = Buffer.from(
			`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`,
		);
		const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
		const chunk = Buffer.alloc(4 * 1024 * 1024, 0x61);
		const u = new URL(`${server.url}/files`);
		return await new Promise<{ status: number; body: string }>((resolve, reject) => {
			let answered = false;
			const req = http.request(
				{
					host: u.hostname,
					port: u.port,
					path: u.pathname,
					method: 'POST',
					agent: false,
					headers: {
						...headers(server),
						'Content-Type': `multipart/form-data; boundary=${boundary}`,
						'Content-Length': head.length + total + tail.length,
					},
				},
				(res) => {
					answered = true;
					let body = '';
					res.on('data', (c) => (body += c));
					res.on('end', () => {
						resolve({ status: res.statusCode ?? 0, body });
						req.destroy();
					});
				},
			);
			// the emulator may close the connection once it has answered: the rest is not needed
			req.on('error', (error) => (answered ? undefined : reject(error)));
			let sent = 0;
			const pump = () => {
				while (sent < total && !answered) {
					const n = Math.min(chunk.length, total - sent);
					sent += n;
					if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n)))
						return void req.once('drain', pump);
				}
				if (!answered) req.end(tail);
			};
			req.write(head);
			pump();
		});
	}

	it('answers 413 past 200 MB without buffering the upload (with the direct limit raised to 200 MB)', async () => {
		const wide = await startEmulator({ quiet: true, maxDirectUploadBytes: 200 * 1024 * 1024 });
		try {
			const result = await postBigFile(wide, 200 * 1024 * 1024 + 1);
			expect(result.status).toBe(413);
			expect(JSON.parse(result.body)).toEqual({
				message: 'The file may not be greater than 200 MB.',
			});
		} finally {
			await wide.stop();
		}
	}, 30_000);

	it("answers 413 to POST /files past 32 MiB by default, as production's front end does", async () => {
		const result = await postBigFile(emu, 32 * 1024 * 1024 + 1);
		expect(result.status).toBe(413);
		expect(JSON.parse(result.body).message).toMatch(/32 MB on this endpoint/);
	}, 30_000);

	it('lists (order, paging, per_page bounds), gets, processes, deletes; links files to agents', async () => {
		const upload = async (name: string) => {
			const fd = new FormData();
			fd.append('file', new Blob([name]), name);
			const r = await fetch(`${emu.url}/files`, {
				method: 'POST',
				headers: headers(emu),
				body: fd,
			});
			return (await r.json()) as Json;
		};
		const a = await upload('a.md');
		const b = await upload('b.csv');
		const desc = (await call('/files?per_page=100')).json;
		expect(keys(desc)).toEqual(['data']);
		const ids = desc.data.map((f: Json) => f.id);
		expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
		const asc = (await call('/files?order=asc&per_page=100')).json.data.map((f: Json) => f.id);
		expect(asc).toEqual([...ids].reverse());
		expect((await call('/files?per_page=1&page=2')).json.data[0].id).toBe(ids[1]);
		expect((await call('/files?per_page=0')).status).toBe(422);
		expect((await call('/files?per_page=101')).status).toBe(422);
		expect((await call('/files?page=0')).status).toBe(422);

		const proc = await call(`/files/${a.id}/process`, { method: 'POST' });
		expect(proc.json).toMatchObject({ id: a.id, status: 'waiting' });
		await emu.waitFor(() => emu.state.files.get(a.id)!.status === 'completed');

		const agent = await firstAgent('text');
		const link = await call(`/agents/${agent.id}/files`, { body: { file_ids: [a.id, b.id] } });
		expect(link.status).toBe(200);
		expect(keys(link.json)).toEqual(['files', 'files_count', 'id', 'status']);
		expect(link.json).toMatchObject({
			id: agent.id,
			status: 'completed',
			files_count: { total: 2, completed: 1, failed: 0, in_progress: 1 },
		});
		expect(keys(link.json.files[0])).toEqual(FILE_KEYS);
		expect((await call(`/agents/${agent.id}/files`, { body: { file_ids: [] } })).status).toBe(422);
		expect((await call(`/agents/${agent.id}/files`, { body: { file_ids: [424242] } })).status).toBe(
			422,
		);
		const list = await call(`/agents/${agent.id}/files`);
		expect(keys(list.json)).toEqual(['files', 'id', 'status']);
		const un = await call(`/agents/${agent.id}/files/${b.id}`, { method: 'DELETE' });
		expect(un.json).toMatchObject({ id: agent.id, removed: true, file: { id: b.id } });
		expect((await call(`/agents/${agent.id}/files/${b.id}`, { method: 'DELETE' })).status).toBe(
			404,
		);

		const del = await call(`/files/${b.id}`, { method: 'DELETE' });
		expect(del.json).toEqual({ message: 'File deleted', id: b.id });
		expect((await call(`/files/${b.id}`, { method: 'DELETE' })).status).toBe(404);
	});

	it('stops at 30 stored files', async () => {
		const small = await startEmulator({ quiet: true, seed: { agents: 4, resources: 0 } });
		try {
			const up = async () => {
				const fd = new FormData();
				fd.append('file', new Blob(['x']), 'x.txt');
				return fetch(`${small.url}/files`, { method: 'POST', headers: headers(small), body: fd });
			};
			for (let i = 0; i < 30; i++) expect((await up()).status).toBe(200);
			const r = await up();
			expect(r.status).toBe(422);
			expect(await r.json()).toEqual({
				message:
					'File storage limit reached: at most 30 files can be stored. Delete files to upload more.',
			});
		} finally {
			await small.stop();
		}
	});
});

describe('memories and collections', () => {
	it('creates, lists, updates and deletes memories with the exact messages', async () => {
		const created = await call('/memories', { body: { memory: 'x'.repeat(32000) } });
		expect(created.status).toBe(201);
		expect(created.json.message).toBe('Memory created successfully');
		expect(keys(created.json.memory)).toEqual([
			'collection_id',
			'credits',
			'id',
			'memory',
			'user_id',
		]);
		expect(created.json.memory).toMatchObject({ collection_id: 1, credits: 0 });

		let r = await call('/memories', { body: { memory: 'x'.repeat(32001) } });
		expect(r.status).toBe(422);
		expect(r.json).toEqual({
			message: 'The memory field must not be greater than 32000 characters.',
		});
		r = await call('/memories', { body: {} });
		expect(r.json).toEqual({ message: 'The memory field is required.' });
		expect((await call('/memories', { body: { memory: 'm', collection_id: 777 } })).status).toBe(
			422,
		);

		const list = await call('/memories?per_page=1');
		expect(keys(list.json)).toEqual(['memories', 'message', 'meta']);
		expect(list.json.message).toBe('Memories retrieved successfully');
		expect(keys(list.json.meta)).toEqual(['current_page', 'last_page', 'total']);
		expect(list.json.meta.last_page).toBe(list.json.meta.total);
		expect((await call('/memories?per_page=51')).status).toBe(422);
		expect((await call('/memories?per_page=0')).status).toBe(422);

		const coll = await call('/memory-collections', { body: { name: 'notes' } });
		const upd = await call(`/memories/${created.json.memory.id}`, {
			method: 'PATCH',
			body: { memory: 'short', collection_id: coll.json.collection.id },
		});
		expect(upd.json).toEqual({
			message: 'Memory updated successfully',
			memory: {
				id: created.json.memory.id,
				user_id: created.json.memory.user_id,
				collection_id: coll.json.collection.id,
				memory: 'short',
				credits: 0,
				collection: {
					id: coll.json.collection.id,
					user_id: created.json.memory.user_id,
					name: 'notes',
				},
			},
		});
		const filtered = await call(`/memories?collection_id=${coll.json.collection.id}`);
		expect(filtered.json.memories.map((m: Json) => m.id)).toEqual([created.json.memory.id]);

		expect(
			(await call('/memories/999999', { method: 'PATCH', body: { memory: 'x' } })).json,
		).toEqual({ message: 'Memory not found!' });
		expect((await call(`/memories/${created.json.memory.id}`, { method: 'DELETE' })).json).toEqual({
			message: 'Memory deleted successfully',
		});
		const gone = await call(`/memories/${created.json.memory.id}`, { method: 'DELETE' });
		expect(gone.status).toBe(404);
		expect(gone.json).toEqual({ message: 'Memory not found!' });
	});

	it('has an undeletable default collection; create, list, search, rename, delete', async () => {
		const list = await call('/memory-collections');
		expect(keys(list.json)).toEqual(['collections', 'message', 'meta']);
		expect(list.json.collections[0]).toEqual({
			id: 1,
			user_id: expect.any(Number),
			name: 'default',
			display_name: 'Default',
		});

		const c = await call('/memory-collections', { body: { name: 'Projects' } });
		expect(c.status).toBe(201);
		expect(keys(c.json)).toEqual(['collection', 'message']);
		expect(keys(c.json.collection)).toEqual(['id', 'name', 'user_id']);
		const id = c.json.collection.id;
		expect(
			(await call('/memory-collections?search=proj')).json.collections.map((x: Json) => x.id),
		).toEqual([id]);
		expect((await call('/memory-collections?per_page=51')).status).toBe(422);

		const put = await call(`/memory-collections/${id}`, {
			method: 'PUT',
			body: { name: 'Projects 2' },
		});
		expect(put.json.collection).toEqual({
			id,
			user_id: c.json.collection.user_id,
			name: 'Projects 2',
		});
		expect((await call(`/memory-collections/${id}`, { method: 'PUT', body: {} })).status).toBe(422);
		expect(
			(await call('/memory-collections/4242', { method: 'PUT', body: { name: 'x' } })).json,
		).toEqual({ message: 'Collection not found' });

		const m = await call('/memories', { body: { memory: 'in projects', collection_id: id } });
		const del = await call(`/memory-collections/${id}`, { method: 'DELETE' });
		expect(del.status).toBe(200);
		expect(keys(del.json)).toEqual(['message']);
		expect(emu.state.memories.has(m.json.memory.id)).toBe(false);
		const again = await call(`/memory-collections/${id}`, { method: 'DELETE' });
		expect(again.status).toBe(404);
		expect(again.json).toEqual({ message: 'Collection not found' });

		const def = await call('/memory-collections/1', { method: 'DELETE' });
		expect(def.status).toBe(403);
		expect(def.json).toEqual({ message: 'Default collection cannot be deleted' });
	});
});

describe('webhooks', () => {
	it('creates (201), validates (400), lists, deletes, and delivers a finished run to the receiver', async () => {
		const received: Array<{
			method: string;
			headers: http.IncomingHttpHeaders;
			body: string;
			url: string;
		}> = [];
		const receiver = await startLoopbackServer(async (req, res) => {
			const body = (await readBody(req)).toString();
			received.push({ method: req.method ?? '', headers: req.headers, body, url: req.url ?? '' });
			res.writeHead(200).end('ok');
		});
		const { port } = receiver;
		try {
			const agent = await firstAgent('chat');
			const created = await call(`/agents/${agent.id}/webhooks`, {
				body: { url: `http://127.0.0.1:${port}/hook?secret=s3`, method: 'POST', status: 'active' },
			});
			expect(created.status).toBe(201);
			expect(keys(created.json)).toEqual(
				sorted([
					'id',
					'template_id',
					'user_id',
					'url',
					'method',
					'status',
					'created_at',
					'updated_at',
				]),
			);
			expect(created.json.created_at).toMatch(MICRO_TS);
			const inactive = await call(`/agents/${agent.id}/webhooks`, {
				body: { url: `http://127.0.0.1:${port}/never`, method: 'POST', status: 'inactive' },
			});
			expect(inactive.status).toBe(201);

			const bad = await call(`/agents/${agent.id}/webhooks`, {
				body: { url: 'not a url', method: 'PUT', status: 'on' },
			});
			expect(bad.status).toBe(400);
			expect(bad.json).toEqual({
				error: 'Validation failed',
				messages: {
					url: ['The url field must be a valid URL.'],
					method: ['The selected method is invalid.'],
					status: ['The selected status is invalid.'],
				},
			});

			const list = (await call(`/agents/${agent.id}/webhooks`)).json;
			expect(keys(list)).toEqual(LARAVEL_KEYS);
			expect(list.total).toBe(2);
			expect(keys(list.data[0])).toEqual(
				sorted([
					'id',
					'template_id',
					'user_id',
					'url',
					'method',
					'success_count',
					'failure_count',
					'status',
					'created_at',
					'updated_at',
					'deleted_at',
				]),
			);
			expect((await call('/webhooks')).json.total).toBeGreaterThanOrEqual(2);

			const run = await call(`/agents/${agent.id}/execute`, {
				body: chatBody(agent, 'deliver me', { wait_execution: true }),
			});
			await emu.waitFor(() => received.length >= 1);
			expect(received).toHaveLength(1);
			expect(received[0].method).toBe('POST');
			expect(received[0].url).toBe('/hook?secret=s3');
			expect(received[0].headers['content-type']).toBe('application/json');
			expect(received[0].headers['user-agent']).toBe('AgentPlatform-Webhooks/1.0');
			expect(JSON.parse(received[0].body)).toEqual(run.json.responses[0]);
			await emu.waitFor(() => emu.deliveries.some((d) => d.webhookId === created.json.id));
			expect(emu.deliveries.find((d) => d.webhookId === created.json.id)).toMatchObject({
				status: 200,
				url: `http://127.0.0.1:${port}/hook?secret=s3`,
			});
			const counted = (await call(`/agents/${agent.id}/webhooks`)).json.data.find(
				(w: Json) => w.id === created.json.id,
			);
			expect(counted).toMatchObject({ success_count: 1, failure_count: 0 });

			expect((await call(`/webhooks/${created.json.id}`, { method: 'DELETE' })).json).toEqual({
				message: 'Webhook deleted',
			});
			expect((await call(`/webhooks/${inactive.json.id}`, { method: 'DELETE' })).status).toBe(200);
			expect((await call(`/webhooks/${created.json.id}`, { method: 'DELETE' })).status).toBe(404);
		} finally {
			await receiver.close();
		}
	});

	it('counts a failed delivery and requires https when configured', async () => {
		const strict = await startEmulator({
			quiet: true,
			timeScale: 50,
			requireHttpsWebhooks: true,
			seed: { agents: 4 },
		});
		try {
			const r = await call(
				'/agents/1/webhooks',
				{ body: { url: 'http://127.0.0.1:9/x', method: 'POST' } },
				strict,
			);
			expect(r.status).toBe(400);
			expect(r.json).toEqual({
				error: 'Validation failed',
				messages: { url: ['The url field must start with https://.'] },
			});
			const ok = await call(
				'/agents/1/webhooks',
				{ body: { url: 'https://127.0.0.1:9/x', method: 'POST' } },
				strict,
			);
			expect(ok.status).toBe(201);
			const agent = (await call('/agents/1', {}, strict)).json;
			await call(
				'/agents/1/execute',
				{ body: chatBody(agent, 'x', { wait_execution: true }) },
				strict,
			);
			await strict.waitFor(() => strict.deliveries.length === 1);
			expect(strict.deliveries[0].status).toBe(0);
			expect(strict.state.webhooks.get(ok.json.id)!.failure_count).toBe(1);
		} finally {
			await strict.stop();
		}
	});
});

describe('resources', () => {
	it('lists with data/meta, filters and caps per_page', async () => {
		const r = (await call('/resources')).json;
		expect(keys(r)).toEqual(['data', 'meta']);
		expect(r.meta).toEqual({
			current_page: 1,
			from: 1,
			last_page: 3,
			per_page: 15,
			to: 15,
			total: 40,
		});
		expect(keys(r.data[0])).toEqual(
			sorted(['id', 'title', 'description', 'created_at', 'updated_at', 'type']),
		);
		expect(typeof r.data[0].id).toBe('string');
		const type = r.data[0].type;
		const byType = (await call(`/resources?type=${type}&per_page=100`)).json;
		expect(byType.data.every((x: Json) => x.type === type)).toBe(true);
		expect(byType.meta.total).toBe(10);
		expect((await call('/resources?per_page=1000')).json.meta.per_page).toBe(100);
		expect((await call('/resources?q=FEATURED')).json.meta.total).toBe(8);
		expect((await call('/resources?page=5')).json.meta).toMatchObject({
			from: null,
			to: null,
			current_page: 5,
		});
	});
});

describe('faults', () => {
	it('rate limits per key with 429, retry_after and Retry-After', async () => {
		emu.setFaults({ rateLimitPerSecond: 1 });
		const a = await call('/resources');
		const b = await call('/resources');
		expect(a.status).toBe(200);
		expect(b.status).toBe(429);
		// the time to the next token: the body in seconds (fractional), the header rounded up
		expect(b.json.error).toBe('Rate limit exceeded');
		expect(b.json.retry_after).toBeGreaterThan(0.5);
		expect(b.json.retry_after).toBeLessThanOrEqual(1);
		expect(b.headers.get('retry-after')).toBe('1');
		expect(emu.requests[emu.requests.length - 1].status).toBe(429);
		emu.setFaults({ retryAfterSeconds: 60 });
		expect((await call('/resources')).json).toEqual({
			error: 'Rate limit exceeded',
			retry_after: 60,
		});
	});

	it('injects 5xx before or after processing, HTML 502, malformed JSON, resets and hangs', async () => {
		const agent = await firstAgent('chat');
		emu.setFaults({ serverErrorRate: 1 });
		let before = emu.executionCount;
		let r = await call(`/agents/${agent.id}/execute`, { body: chatBody(agent, 'x') });
		expect(r.status).toBe(503);
		expect(emu.executionCount).toBe(before);

		emu.setFaults({ serverErrorRate: 1, serverErrorAfterProcessing: true, serverErrorStatus: 500 });
		before = emu.executionCount;
		r = await call(`/agents/${agent.id}/execute`, { body: chatBody(agent, 'x') });
		expect(r.status).toBe(500);
		expect(emu.executionCount).toBe(before + 1);

		emu.resetFaults();
		emu.setFaults({ htmlErrorRate: 1 });
		r = await call('/agents');
		expect(r.status).toBe(502);
		expect(r.headers.get('content-type')).toMatch(/text\/html/);

		emu.setFaults({ htmlErrorRate: 0, malformedJsonRate: 1 });
		r = await call('/agents');
		expect(r.status).toBe(200);
		expect(() => JSON.parse(r.text)).toThrow();

		emu.setFaults({ malformedJsonRate: 0, resetConnectionRate: 1 });
		await expect(fetch(`${emu.url}/agents`, { headers: headers(emu) })).rejects.toThrow();

		emu.setFaults({ resetConnectionRate: 0, hangRate: 1 });
		await expect(
			fetch(`${emu.url}/agents`, { headers: headers(emu), signal: AbortSignal.timeout(300) }),
		).rejects.toThrow();
		expect(emu.requests[emu.requests.length - 1].status).toBe(0);

		emu.setFaults({ hangRate: 0, latencyMs: 150 });
		const t0 = Date.now();
		await call('/resources');
		expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
	});

	it('exposes the same control over HTTP under /_emulator', async () => {
		const root = emu.url.replace(/\/api\/v1$/, '');
		expect(await (await fetch(`${root}/_emulator/health`)).json()).toMatchObject({
			ok: true,
			url: emu.url,
		});
		await fetch(`${root}/_emulator/requests`, { method: 'DELETE' });
		await call('/agents/1');
		const recs = (await (await fetch(`${root}/_emulator/requests`)).json()) as Json;
		expect(recs.requests.map((x: Json) => x.path)).toEqual(['/agents/1']);

		await fetch(`${root}/_emulator/faults`, {
			method: 'PUT',
			body: JSON.stringify({ serverErrorRate: 1, serverErrorStatus: 504 }),
		});
		expect((await call('/agents/1')).status).toBe(504);
		await fetch(`${root}/_emulator/faults`, { method: 'DELETE' });
		expect((await call('/agents/1')).status).toBe(200);

		const agent = await firstAgent('chat');
		const cfg = await fetch(`${root}/_emulator/agents/${agent.id}/config`, {
			method: 'POST',
			body: JSON.stringify({ fail: 'configured failure', executionSeconds: 1 }),
		});
		expect(cfg.status).toBe(200);
		const run = await call(`/agents/${agent.id}/execute`, {
			body: chatBody(agent, 'x', { wait_execution: true }),
		});
		expect(run.json.responses[0]).toMatchObject({ status: 'failed', error: 'configured failure' });
		emu.configureAgent(agent.id, { fail: false, output: 'fixed output' });
		const run2 = await call(`/agents/${agent.id}/execute`, {
			body: chatBody(agent, 'x', { wait_execution: true }),
		});
		expect(run2.json.responses[0]).toMatchObject({ status: 'succeeded', output: 'fixed output' });

		const state = (await (await fetch(`${root}/_emulator/state`)).json()) as Json;
		expect(state.executionCount).toBe(emu.executionCount);
		expect(state.counts.agents).toBe(40);
		expect(Array.isArray(state.deliveries)).toBe(true);
	});
});
