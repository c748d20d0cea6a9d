/**
 * Batch Processing → Batch Size (actions/router.ts): items processed several at a time against the
 * emulator with latency, through n8n's real execution machinery. Outputs keep the input order with
 * the right pairedItem; "Continue On Fail" and the error output work per item; without them the
 * lowest failing item stops the node and no later item is started; local checks still refuse bad
 * input before anything is sent; the default stays one item after another.
 */
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { PlatformEmulator, RecordedRequest } from '../../../dev/emulator';
import type { RunNodeOptions } from '../../infra/n8n/runNode';
import { byId, credentialsFor } from '../../infra/n8n/credentials';
import { runNode } from '../../infra/n8n/runNode';
import { useEmulator } from '../../infra/useEmulator';

// Long enough that a stall of this process (which hosts the emulator) up to ARRIVAL_SPREAD_MS keeps
// the requests of one round together: more than five arrivals within less than the latency is
// more than five in flight, whatever the stalls.
const LATENCY_MS = 400;
const ARRIVAL_SPREAD_MS = LATENCY_MS - 50;
const MISSING_AGENT = 99_999;
let emu: PlatformEmulator;

useEmulator({ quiet: true }, (started) => (emu = started));
beforeEach(() => emu.setFaults({ latencyMs: LATENCY_MS }));

const agentGets = () =>
	emu.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/agents/'));

/** One item per agent ID, asking Agent → Get for `={{ $json.agentId }}`. */
function agentItems(ids: Array<number | string>): INodeExecutionData[] {
	return ids.map((agentId) => ({ json: { agentId } }));
}

function agentGet(batchSize?: number): INodeParameters {
	return {
		resource: 'agent',
		operation: 'get',
		agentId: byId('={{ $json.agentId }}'),
		...(batchSize === undefined ? {} : { batching: { batchSize } }),
	};
}

async function run(
	parameters: INodeParameters,
	items: INodeExecutionData[],
	options: Partial<RunNodeOptions> = {},
) {
	return await runNode({ parameters, items, credentials: credentialsFor(emu), ...options });
}

/** The most requests that arrived within `spanMs` of each other (a lower bound of those in flight at once). */
function mostArrivedWithin(requests: RecordedRequest[], spanMs: number): number {
	let most = 0;
	for (const request of requests) {
		most = Math.max(
			most,
			requests.filter((o) => o.at <= request.at && request.at - o.at < spanMs).length,
		);
	}
	return most;
}

describe('Batch Size above 1', () => {
	it('processes five items at a time and returns the outputs in input order, each paired with its item', async () => {
		const ids = [7, 3, 12, 1, 40, 9, 2, 25, 18, 5, 33, 11];
		// the baseline, in this process and at this moment: the same items one after another
		let started = Date.now();
		await run(agentGet(), agentItems(ids));
		const oneByOne = Date.now() - started;
		emu.clearRequests();
		started = Date.now();
		const { outputs, error } = await run(agentGet(5), agentItems(ids));
		const took = Date.now() - started;

		expect(error).toBeUndefined();
		expect(outputs[0].map((item) => item.json.id)).toEqual(ids);
		expect(outputs[0].map((item) => item.pairedItem)).toEqual(ids.map((_, i) => ({ item: i })));
		expect(agentGets()).toHaveLength(ids.length);
		expect(mostArrivedWithin(agentGets(), ARRIVAL_SPREAD_MS)).toBe(5);
		// three rounds of the latency, not twelve
		expect(took).toBeLessThan(oneByOne / 2);
	});

	it('Continue On Fail: a failing item becomes an error item in its own place, the others succeed', async () => {
		const ids = [1, MISSING_AGENT, 2, 3, MISSING_AGENT, 4, 5];
		const { outputs, error } = await run(agentGet(4), agentItems(ids), { continueOnFail: true });

		expect(error).toBeUndefined();
		expect(outputs[0].map((item) => item.pairedItem)).toEqual(ids.map((_, i) => ({ item: i })));
		outputs[0].forEach((item, i) => {
			if (ids[i] === MISSING_AGENT)
				expect(item.json.error).toBe(`The platform could not find agent ${MISSING_AGENT}`);
			else expect(item.json).toMatchObject({ id: ids[i] });
		});
	});

	it('error output: failing items go to the error output, paired with their items, in order', async () => {
		const ids = [MISSING_AGENT, 1, 2, MISSING_AGENT, 3];
		const { outputs, error } = await run(agentGet(3), agentItems(ids), {
			onError: 'continueErrorOutput',
		});

		expect(error).toBeUndefined();
		expect(outputs[0].map((item) => [item.json.id, item.pairedItem])).toEqual([
			[1, { item: 1 }],
			[2, { item: 2 }],
			[3, { item: 4 }],
		]);
		expect(outputs[1].map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 3 }]);
		expect(outputs[1].every((item) => /could not find agent/.test(String(item.json.error)))).toBe(
			true,
		);
	});

	it('without Continue On Fail: the lowest failing item stops the node and no later item is started', async () => {
		const ids = [1, 2, MISSING_AGENT, 3, MISSING_AGENT, 4, 5, 6, 7, 8, 9, 10];
		const { outputs, error } = await run(agentGet(3), agentItems(ids));

		expect(outputs).toEqual([]);
		expect(error?.message).toBe(`The platform could not find agent ${MISSING_AGENT}`);
		expect((error as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(2);
		// items 1-3 started together; once item 3 failed only the two already under way went on
		const asked = agentGets().map((r) => Number(r.path.split('/')[2]));
		expect(asked.length).toBeLessThanOrEqual(5);
		expect(asked).not.toContain(6);
	});

	it('a local check refuses its item before anything is sent for it, naming the item', async () => {
		const { outputs, error } = await run(agentGet(4), agentItems([1, 2, 'abc', 3]), {
			continueOnFail: true,
		});

		expect(error).toBeUndefined();
		expect(outputs[0][2].json.error).toMatch(/\(item 3\)/);
		expect(outputs[0][2].pairedItem).toEqual({ item: 2 });
		expect(
			agentGets()
				.map((r) => r.path)
				.sort(),
		).toEqual(['/agents/1', '/agents/2', '/agents/3']);
	});

	it('Memory → Create: every item creates its memory once, outputs in input order', async () => {
		const texts = Array.from({ length: 10 }, (_, i) => `batch note ${i}`);
		const { outputs, error } = await run(
			{
				resource: 'memory',
				operation: 'create',
				memory: '={{ $json.text }}',
				batching: { batchSize: 5 },
			},
			texts.map((text) => ({ json: { text } })),
		);

		expect(error).toBeUndefined();
		expect(outputs[0].map((item) => item.json.memory)).toEqual(texts);
		const stored = [...emu.state.memories.values()]
			.filter((m) => m.memory.startsWith('batch note'))
			.map((m) => m.memory);
		expect(stored.sort()).toEqual([...texts].sort());
		expect(
			mostArrivedWithin(
				emu.requests.filter((r) => r.method === 'POST'),
				ARRIVAL_SPREAD_MS,
			),
		).toBe(5);
	});
});

describe('default Batch Size (1)', () => {
	it('processes one item after another', async () => {
		const ids = [4, 8, 15, 16];
		const { outputs, error } = await run(agentGet(), agentItems(ids));

		expect(error).toBeUndefined();
		expect(outputs[0].map((item) => item.json.id)).toEqual(ids);
		const gets = agentGets();
		for (let i = 1; i < gets.length; i++)
			expect(gets[i].at - gets[i - 1].at).toBeGreaterThanOrEqual(LATENCY_MS - 10);
	});
});
