/**
 * Executions in rotation within a class (transport/pace/paceQueue.ts, classQueue.ts): one request
 * each, one execution's requests in the order asked, interactive first and bulk's share
 * as before; and the pace's state stays bounded: the entries of executions, the slots in flight and
 * the paces of credentials no longer used are released (a thousand of each come and go).
 * Waiting is real (n8n-workflow's sleep), so the rates are high and the waits short.
 */
import {
	Pace,
	PACING,
	paceFor,
	pacesKept,
	resetPaces,
} from '../../../nodes/AgentPlatform/transport/pace';
import { ClassQueue } from '../../../nodes/AgentPlatform/transport/pace/classQueue';
import { PaceQueue } from '../../../nodes/AgentPlatform/transport/pace/paceQueue';
import { context, stopClock, takeAll, takeAllAtOnce, usePacingSettings } from './setup';

type Ctx = ReturnType<typeof context>;

/** The context of a node run in execution `id` (mode: bulk unless `mode` says otherwise). */
const inExecution = (id: string, mode?: string, signal?: AbortSignal): Ctx =>
	context(signal, { getExecutionId: () => id, ...(mode ? { getMode: () => mode } : {}) });

const requests = (execution: string, count: number, mode?: string): Array<[string, Ctx]> =>
	Array.from({ length: count }, (_, i) => [`${execution}${i + 1}`, inExecution(execution, mode)]);

describe('executions in rotation within a class', () => {
	usePacingSettings();

	it('two executions waiting send in rotation, one request each; each keeps its own order', async () => {
		const pace = new Pace(200);
		// A asks for five pages first, then B for two: B does not wait for A's five
		const sent = await takeAllAtOnce(pace, [...requests('A', 5), ...requests('B', 2)]);
		// A1 went at once; then A and B alternately, A's last pages after B's
		expect(sent).toEqual(['A1', 'A2', 'B1', 'A3', 'B2', 'A4', 'A5']);
	});

	it("a chat beside another interactive execution's paging waits about one request, not the paging", async () => {
		const pace = new Pace(200);
		const sent: string[] = [];
		// a run from the editor pages ten times (interactive, as a webhook whose caller waits); the
		// clock stands still until the chat has asked, so a late timer cannot let more pages go first
		const startClock = stopClock();
		const paging = takeAll(pace, requests('P', 10, 'manual'), sent);
		await new Promise((resolve) => setTimeout(resolve, 12)); // the first page went
		const chat = takeAll(pace, requests('C', 1, 'chat'), sent);
		startClock();
		await chat;
		await paging;
		const pagesBefore = sent.indexOf('C1');
		expect(pagesBefore).toBeLessThanOrEqual(4);
		// the pages went in order, each once
		expect(sent.filter((label) => label !== 'C1')).toEqual(
			Array.from({ length: 10 }, (_, i) => `P${i + 1}`),
		);
	});

	it("a chat's run after its form goes next in rotation: the paging does not take a round between", async () => {
		const pace = new Pace(100);
		const sent: string[] = [];
		const paging = takeAll(pace, requests('P', 8, 'manual'), sent);
		await new Promise((resolve) => setTimeout(resolve, 15));
		const chat = inExecution('C', 'chat');
		pace.answered(await pace.take(chat), 200);
		sent.push('C form');
		// the form's answer takes a while: the paging sends meanwhile
		await new Promise((resolve) => setTimeout(resolve, 25));
		const pagesBefore = sent.length;
		pace.answered(await pace.take(chat), 200);
		const pagesBetween = sent.length - pagesBefore;
		sent.push('C run');
		await paging;
		// served longer ago than the paging: the run goes before the page waiting at the gate
		expect(pagesBetween).toBe(0);
		expect(sent.filter((label) => label.startsWith('P'))).toHaveLength(8);
	});

	it('interactive first and bulk keeping one send in three, as before', async () => {
		const pace = new Pace(200);
		const sent = await takeAllAtOnce(pace, [
			...requests('N', 3), // a schedule: bulk
			...requests('M', 3, 'manual'),
			...requests('K', 3, 'manual'),
		]);
		// N1 went at once; then interactive M and K alternately, bulk taking every third send
		expect(sent).toEqual(['N1', 'M1', 'K1', 'N2', 'M2', 'K2', 'N3', 'M3', 'K3']);
	});

	it('a retry of an execution goes before the others waiting', async () => {
		const pace = new Pace(50);
		const first = await pace.take(inExecution('A'));
		const order: string[] = [];
		// B, the 429 and the retry at the instant A was sent: a pause of the test past the gate's
		// 20 ms would let B go before the 429 is known (busy run 25)
		const startClock = stopClock(first.sentAt);
		const b = pace.take(inExecution('B')).then(() => order.push('B'));
		pace.answered(first, 429, {}, 60);
		const retry = pace.take(inExecution('A'), true).then(() => order.push('A retry'));
		startClock();
		await Promise.all([b, retry]);
		expect(order).toEqual(['A retry', 'B']);
	});
});

describe("the pace's state stays bounded", () => {
	usePacingSettings();

	it('a thousand executions come and go, some cancelled: no entry, no slot in flight remains', async () => {
		const pace = new Pace(100_000);
		const queued = Array.from({ length: 1000 }, (_, i) => {
			const controller = new AbortController();
			const taken = pace.take(
				inExecution(`run ${i}`, i % 2 ? 'manual' : undefined, controller.signal),
			);
			if (i % 10 === 9) controller.abort();
			return taken.then(
				(slot) => (i % 3 ? pace.answered(slot, 200) : pace.release(slot)),
				() => undefined,
			);
		});
		expect(pace.executionsWaiting).toBeGreaterThan(0);
		await Promise.all(queued);
		expect(pace.waiting).toBe(0);
		expect(pace.executionsWaiting).toBe(0);
		expect(pace.sending).toBe(0);
	});

	it('the queue forgets an execution whose requests all left, whether served or not', () => {
		const queue = new PaceQueue();
		for (let i = 0; i < 1000; i++) {
			const a = queue.join(i % 2 ? 'bulk' : 'interactive', `run ${i}`, false);
			const b = queue.join(i % 2 ? 'bulk' : 'interactive', `run ${i}`, i % 3 === 0);
			queue.leave(a, true);
			queue.leave(b, false);
		}
		expect(queue.length).toBe(0);
		expect(queue.executions).toBe(0);
		// when the last served were served is kept for those that come back: a few hundred at most
		const classQueue = new ClassQueue();
		for (let i = 0; i < 1000; i++) {
			const me = { workClass: 'bulk' as const, execution: `run ${i}` };
			classQueue.join(me, false);
			classQueue.leave(me, true);
		}
		expect(classQueue.executions).toBe(0);
		expect(classQueue.remembered).toBeLessThanOrEqual(256);
	});

	it('the paces of a thousand credentials no longer used are forgotten; one in use is kept', async () => {
		resetPaces();
		const inUse = paceFor('digest in use', 1000);
		const inFlight = await inUse.take(context()); // in flight: not idle
		for (let i = 0; i < 1000; i++) {
			const pace = paceFor(`digest ${i}`, 1000);
			pace.answered(await pace.take(context()), 200);
		}
		expect(pacesKept()).toBe(1001);
		PACING.forgetIdleMs = 0;
		PACING.sweepEveryMs = 0;
		const another = paceFor('digest another', 1000);
		expect(pacesKept()).toBe(2); // the one in use and the one just asked for
		expect(paceFor('digest in use', 1000)).toBe(inUse);
		inUse.answered(inFlight, 200);
		expect(another.idleSince()).toBeDefined();
		resetPaces();
	});
});
