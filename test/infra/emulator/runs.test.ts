/**
 * Integration tests of the platform emulator (dev/emulator) over loopback with Node's fetch.
 * They pin the emulator to the platform's contract (and production's behaviour where it differs,
 * docs/platform-assumptions.md): envelopes, field sets, messages,
 * lifecycle in virtual time, streams, multipart, limits, webhooks deliveries and faults.
 *
 * This file: executions (runs, streams, chat completions).
 */
import { startEmulator } from '../../../dev/emulator';
import {
	Json,
	MICRO_TS,
	RESPONSE_KEYS,
	STREAM_KEYS,
	call,
	chatBody,
	emu,
	firstAgent,
	headers,
	keys,
	pollResponse,
	readSse,
} from './shared';

describe('executions', () => {
	it('execute without wait answers `starting`, then the record runs to `succeeded`', async () => {
		const agent = await firstAgent('chat');
		const before = emu.runCount;
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
		expect(emu.runCount).toBe(before + 1);

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
		expect(emu.state.runs.get(r.json.responses[0].id)!.answers.model).toBe(
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
			// answered at the 100 s wait, not at the run's end: `running` says so whatever the machine's
			// load (a bound on the elapsed time would fail beside a busy neighbour)
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
		const before = emu.runCount;
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
		expect(emu.runCount).toBe(before + 1);

		const res = await fetch(emu.url + base, {
			method: 'POST',
			headers: headers(emu, { 'Content-Type': 'application/json' }),
			body: JSON.stringify({
				model,
				stream: true,
				// usage asked for, which the platform does not document: none comes
				stream_options: { include_usage: true },
				messages: [{ role: 'user', content: 'stream openai' }],
			}),
		});
		const { events } = await readSse(res);
		expect(events[events.length - 1]).toBe('[DONE]');
		const chunks = events.slice(0, -1).map((e) => JSON.parse(e));
		// as in production: the chunks carry no id, object or created
		expect(chunks.every((c) => c.id === undefined && c.object === undefined)).toBe(true);
		expect(chunks.every((c) => c.created === undefined && c.model === model)).toBe(true);
		expect(chunks.every((c) => c.usage === undefined)).toBe(true);
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
