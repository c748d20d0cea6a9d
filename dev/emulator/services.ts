/**
 * What every handler of the emulator needs and nothing else: the resolved options, the in-memory
 * store, the virtual clock, the faults, the id counters, the origin it listens on and the storage
 * host's addresses. It imports none of the handlers, so each of them (and the run engine, the
 * webhook dispatcher, the seed) can be read and tested with this alone; platform.ts composes them.
 */
import { Clock } from './clock';
import { DEFAULT_FAULTS, resolveOptions, type ResolvedOptions } from './options';
import type {
	AgentConfig,
	Delivery,
	EmulatorFaults,
	EmulatorOptions,
	EmulatorState,
	RecordedRequest,
	StoredObject,
} from './types';

/** The storage host (storage.ts) as the handlers see it: signed URLs, kept objects, generated files. */
export interface StorageHost {
	readonly objects: Map<string, StoredObject>;
	sign(path: string, contentType: string): { url: string; expiresAt: number };
	generatedUrl(responseId: number, name: string): string;
}

export class EmulatorServices {
	readonly opts: ResolvedOptions;
	readonly clock: Clock;
	readonly state: EmulatorState;
	faults: EmulatorFaults;
	readonly agentConfig = new Map<number, AgentConfig>();
	readonly deliveries: Delivery[] = [];
	readonly requests: RecordedRequest[] = [];
	runCount = 0;
	readonly ids = { response: 1001, file: 501, memory: 1, collection: 2, webhook: 1 };
	/** Set by the server once listening. */
	listenOrigin = '';
	/** The storage host (signed uploads, generated files), set by PlatformEmulator. */
	storage: StorageHost | null = null;
	stopped = false;

	constructor(options: EmulatorOptions = {}) {
		this.opts = resolveOptions(options);
		this.clock = new Clock(this.opts.timeScale);
		this.faults = { ...DEFAULT_FAULTS, ...(options.faults ?? {}) };
		this.state = {
			agents: new Map(),
			runs: new Map(),
			files: new Map(),
			memories: new Map(),
			collections: new Map(),
			webhooks: new Map(),
			resources: new Map(),
		};
	}

	get basePath(): string {
		return this.opts.basePath;
	}

	origin(): string {
		return this.listenOrigin;
	}

	nextId(kind: keyof EmulatorServices['ids']): number {
		return this.ids[kind]++;
	}

	setFaults(f: Partial<EmulatorFaults>): void {
		const next: EmulatorFaults = { ...this.faults };
		for (const [k, v] of Object.entries(f) as Array<[keyof EmulatorFaults, unknown]>) {
			if (v !== undefined) (next as unknown as Record<string, unknown>)[k] = v;
			else if (k === 'retryAfterSeconds' || k === 'rateLimitBurst') next[k] = undefined;
		}
		this.faults = next;
	}

	resetFaults(): void {
		this.faults = { ...DEFAULT_FAULTS };
	}

	log(line: string): void {
		if (!this.opts.quiet) process.stderr.write(`[emulator] ${line}\n`);
	}
}
