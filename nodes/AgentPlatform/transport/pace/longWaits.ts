/**
 * A request that waited more than PACING.logWaitMs for its slot is written to n8n's log with the
 * reason (the key's rate, how many requests were ahead of it, a hold the platform asked for), so
 * that a slow answer can be explained from the log. Never the key itself.
 */
import type { PlatformContext } from '../types';
import { PACING } from './settings';
import type { WorkClass } from './workClass';

export interface WaitReason {
	workClass: WorkClass;
	/** Requests ahead of it when it joined the queue. */
	ahead: number;
	/** The rate the pace kept, requests a second. */
	rate: number;
	/** How long the platform held the key (a 429's wait) when it joined. */
	heldMs: number;
}

export function logLongWait(ctx: PlatformContext, waitedMs: number, reason: WaitReason): void {
	if (waitedMs < PACING.logWaitMs) return;
	const holdClause =
		reason.heldMs > 0
			? `, and the platform held the key for ${seconds(reason.heldMs)} after a 429`
			: '';
	const logger = (ctx as Partial<Pick<PlatformContext, 'logger'>>).logger;
	logger?.info(
		`Agent Platform: a request of node "${ctx.getNode().name}" (${reason.workClass} work) waited ${seconds(waitedMs)} to be sent: this credential is paced at ${round(reason.rate)} requests a second and ${reason.ahead === 1 ? '1 request was' : `${reason.ahead} requests were`} ahead of it${holdClause}`,
	);
}

const round = (value: number) => Math.round(value * 100) / 100;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
