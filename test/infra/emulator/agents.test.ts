/**
 * Integration tests of the platform emulator (dev/emulator) over loopback with Node's fetch.
 * They pin the emulator to the platform's contract (and production's behaviour where it differs,
 * docs/platform-assumptions.md): envelopes, field sets, messages,
 * lifecycle in virtual time, streams, multipart, limits, webhooks deliveries and faults.
 *
 * This file: agents.
 */
import {
	AGENT_KEYS,
	Json,
	LARAVEL_KEYS,
	MICRO_TS,
	call,
	emu,
	firstAgent,
	keys,
	sorted,
} from './shared';

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
