/**
 * The emulated platform: the services every handler needs (services.ts), seeded, with the run
 * engine and the webhook dispatcher on top. The one place that composes them, so that none of
 * them imports another's composition back.
 */
import { ExecutionEngine } from './runEngine';
import { seedState } from './seed';
import { EmulatorServices } from './services';
import type { EmulatorOptions } from './types';
import { WebhookDispatcher } from './webhooks';

export class Platform extends EmulatorServices {
	readonly engine: ExecutionEngine;
	readonly webhooks: WebhookDispatcher;

	constructor(options: EmulatorOptions = {}) {
		super(options);
		seedState(this);
		this.webhooks = new WebhookDispatcher(this);
		// A finished run starts its webhook deliveries.
		this.engine = new ExecutionEngine(this, (record) => this.webhooks.deliverFor(record));
	}

	stop(): void {
		this.stopped = true;
		this.clock.stop();
		this.engine.stop();
		this.webhooks.stop();
	}
}
