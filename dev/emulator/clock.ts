/**
 * Virtual clock: `timeScale` virtual seconds pass per real second. Timestamps and every
 * scheduled step (execution lifecycle, file processing, the 100 s wait) use virtual time, so a
 * 150 s execution at timeScale 100 takes 1.5 real seconds and its timestamps are 150 s apart.
 * Every timer is tracked so that stop() leaves nothing behind.
 */

export type TimerHandle = { id: number };

export class Clock {
	private readonly realStartMicros: bigint;
	private readonly hrStart: bigint;
	private readonly timers = new Map<number, NodeJS.Timeout>();
	private nextTimer = 1;
	private stopped = false;

	constructor(readonly timeScale: number) {
		if (!(timeScale > 0)) throw new Error(`timeScale must be > 0, got ${timeScale}`);
		this.realStartMicros = BigInt(Date.now()) * 1000n;
		this.hrStart = process.hrtime.bigint();
	}

	/** Virtual time in microseconds since the epoch. */
	nowMicros(): bigint {
		const elapsedNs = process.hrtime.bigint() - this.hrStart;
		const virtualElapsedMicros = BigInt(Math.round((Number(elapsedNs) / 1000) * this.timeScale));
		return this.realStartMicros + virtualElapsedMicros;
	}

	/** Virtual time in milliseconds since the epoch. */
	nowMs(): number {
		return Number(this.nowMicros() / 1000n);
	}

	/** `2026-11-22T07:19:56.123456Z` (agents, agent responses, webhooks). */
	isoMicro(micros: bigint = this.nowMicros()): string {
		return formatMicro(micros);
	}

	/** `2026-11-22T07:19:56+00:00` (files). */
	isoSeconds(micros: bigint = this.nowMicros()): string {
		return formatSeconds(micros);
	}

	/** Real milliseconds that `virtualSeconds` take. */
	realMs(virtualSeconds: number): number {
		return Math.max(0, (virtualSeconds * 1000) / this.timeScale);
	}

	/** Runs fn after `virtualSeconds` of virtual time. */
	after(virtualSeconds: number, fn: () => void): TimerHandle {
		const id = this.nextTimer++;
		if (this.stopped) return { id };
		const t = setTimeout(() => {
			this.timers.delete(id);
			if (!this.stopped) fn();
		}, this.realMs(virtualSeconds));
		this.timers.set(id, t);
		return { id };
	}

	/** Runs fn after `ms` real milliseconds (tracked like virtual timers). */
	afterReal(ms: number, fn: () => void): TimerHandle {
		return this.after((ms / 1000) * this.timeScale, fn);
	}

	cancel(handle: TimerHandle | null | undefined): void {
		if (!handle) return;
		const t = this.timers.get(handle.id);
		if (t) {
			clearTimeout(t);
			this.timers.delete(handle.id);
		}
	}

	get pendingTimers(): number {
		return this.timers.size;
	}

	stop(): void {
		this.stopped = true;
		for (const t of this.timers.values()) clearTimeout(t);
		this.timers.clear();
	}
}

function pad(n: number, width = 2): string {
	return String(n).padStart(width, '0');
}

function datePart(ms: number): string {
	const d = new Date(ms);
	return (
		`${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}` +
		`T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
	);
}

export function formatMicro(micros: bigint): string {
	const ms = Number(micros / 1000n);
	const frac = Number(micros % 1000000n);
	return `${datePart(ms)}.${pad(frac, 6)}Z`;
}

export function formatSeconds(micros: bigint): string {
	return `${datePart(Number(micros / 1000n))}+00:00`;
}

/** Fixed timestamp for seeded records: `daysAfter` days (plus a few seconds) after 2026-01-05. */
export function seededMicros(index: number): bigint {
	const base = Date.UTC(2026, 0, 5, 9, 30, 0);
	const ms = base + index * 86_400_000 + index * 3_611_000;
	return BigInt(ms) * 1000n + BigInt((index * 123_457) % 1000);
}
