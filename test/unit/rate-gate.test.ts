/**
 * The run's rate gate (transport/rateLimit.ts) on its own: AIMD window, the shared pause, and the
 * order in which waiting requests go. `wait` is a real (short) sleep, as n8n-workflow's is.
 */
import { RateGate, rateGateOf } from '../../nodes/AgentPlatform/transport/rateLimit';

const realWait = async (ms: number) => await new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('RateGate', () => {
	it('lets everything through until the first 429', async () => {
		const gate = new RateGate(realWait);
		const tickets = await Promise.all(Array.from({ length: 50 }, async () => await gate.acquire()));
		expect(gate.inFlight).toBe(50);
		tickets.forEach((t) => gate.release(t));
		expect(gate.inFlight).toBe(0);
		expect(gate.window).toBe(Number.POSITIVE_INFINITY);
	});

	it('halves the requests in flight once per round, however many 429s that round brings', async () => {
		const gate = new RateGate(realWait);
		const tickets = await Promise.all(Array.from({ length: 12 }, async () => await gate.acquire()));
		for (const ticket of tickets.slice(0, 5)) {
			gate.rateLimitedFor(ticket, 0);
			gate.release(ticket);
		}
		expect(gate.window).toBe(6); // half of the 12 in flight at the first 429
		expect(gate.rateLimited).toBe(5);
		tickets.slice(5).forEach((t) => gate.release(t));
		const next = await Promise.all(Array.from({ length: 6 }, async () => await gate.acquire(true)));
		gate.rateLimitedFor(next[0], 0); // sent in the new round: halves again
		expect(gate.window).toBe(3);
		next.forEach((t) => gate.release(t));
	});

	it('allows one more in flight after each full window of successes', async () => {
		const gate = new RateGate(realWait);
		const first = await gate.acquire();
		const second = await gate.acquire();
		gate.rateLimitedFor(first, 0);
		gate.release(first);
		gate.release(second);
		expect(gate.window).toBe(1);
		gate.succeeded();
		expect(gate.window).toBe(2);
		gate.succeeded();
		expect(gate.window).toBe(2);
		gate.succeeded();
		expect(gate.window).toBe(3);
	});

	it('holds every request for the asked wait, then lets retries go first', async () => {
		const gate = new RateGate(realWait);
		const limited = await gate.acquire();
		const started = Date.now();
		gate.rateLimitedFor(limited, 120);
		gate.release(limited);
		const order: string[] = [];
		const fresh = gate.acquire().then((t) => {
			order.push('fresh');
			return t;
		});
		const retry = gate.acquire(true).then((t) => {
			order.push('retry');
			return t;
		});
		const retryTicket = await retry;
		expect(Date.now() - started).toBeGreaterThanOrEqual(110);
		expect(order).toEqual(['retry']); // window 1: the retry first, the fresh request when it is done
		gate.release(retryTicket);
		gate.release(await fresh);
		expect(order).toEqual(['retry', 'fresh']);
	});

	it('rejects the waiting requests when the wait is cancelled', async () => {
		const cancelled = new Error('The execution was canceled');
		const gate = new RateGate(async () => await Promise.reject(cancelled));
		const ticket = await gate.acquire();
		gate.rateLimitedFor(ticket, 1000);
		gate.release(ticket);
		await expect(gate.acquire()).rejects.toBe(cancelled);
	});

	it('is one gate per execution context', () => {
		const run = {};
		expect(rateGateOf(run, realWait)).toBe(rateGateOf(run, realWait));
		expect(rateGateOf({}, realWait)).not.toBe(rateGateOf(run, realWait));
	});
});
