/**
 * The emulator's shared core: resolved options, the in-memory store, the virtual clock, faults,
 * id counters, the execution engine and the webhook dispatcher. Section modules receive it
 * through the request context.
 */
import { Clock } from './clock';
import { ExecutionEngine } from './runEngine';
import { WebhookDispatcher } from './webhooks';
import { seedState } from './seed';
import type { StorageServer } from './storage';
import type {
	AgentConfig,
	Delivery,
	EmulatorFaults,
	EmulatorOptions,
	EmulatorState,
	RecordedRequest,
} from './types';

export interface ResolvedOptions {
	host: string;
	port: number;
	basePath: string;
	apiKey: string;
	workspaceId: string;
	timeScale: number;
	executionSeconds: number;
	fileProcessingSeconds: number;
	requireHttpsWebhooks: boolean;
	maxStoredFiles: number;
	maxPerPage: number;
	strictPerPage: boolean;
	maxDirectUploadBytes: number;
	storagePort: number;
	seed: { agents: number; memories: number; resources: number };
	quiet: boolean;
}

export const DEFAULT_FAULTS: EmulatorFaults = {
	latencyMs: 0,
	rateLimitPerSecond: 0,
	rateLimitBurst: undefined,
	rateLimitWindow: null,
	retryAfterSeconds: undefined,
	serverErrorRate: 0,
	serverErrorStatus: 503,
	serverErrorAfterProcessing: false,
	cutStreamAfterEvents: null,
	silentStreamAfterEvents: null,
	malformedJsonRate: 0,
	htmlErrorRate: 0,
	resetConnectionRate: 0,
	hangRate: 0,
	signedUploads: 'on',
	signedUploadSpelling: 'snake',
	gatewayTimeoutSeconds: null,
	okErrorBody: null,
	cutAfterProcessing: null,
	executeStreamError: null,
};

export function resolveOptions(o: EmulatorOptions = {}): ResolvedOptions {
	// Production serves its paths at the root (docs/platform-assumptions.md); a base path stays possible.
	let basePath = o.basePath ?? '';
	if (basePath && !basePath.startsWith('/')) basePath = `/${basePath}`;
	basePath = basePath.replace(/\/+$/, '');
	return {
		host: o.host ?? '127.0.0.1',
		port: o.port ?? 0,
		basePath,
		apiKey: o.apiKey ?? 'test-api-key',
		workspaceId: o.workspaceId ?? '42',
		timeScale: o.timeScale ?? 1,
		executionSeconds: o.executionSeconds ?? 3,
		fileProcessingSeconds: o.fileProcessingSeconds ?? 2,
		requireHttpsWebhooks: o.requireHttpsWebhooks ?? false,
		maxStoredFiles: o.maxStoredFiles ?? 30,
		maxPerPage: o.maxPerPage ?? 100,
		strictPerPage: o.strictPerPage ?? false,
		maxDirectUploadBytes: o.maxDirectUploadBytes ?? 32 * 1024 * 1024,
		storagePort: o.storagePort ?? 0,
		seed: {
			agents: o.seed?.agents ?? 40,
			memories: o.seed?.memories ?? 0,
			resources: o.seed?.resources ?? 40,
		},
		quiet: o.quiet ?? process.env.JEST_WORKER_ID !== undefined,
	};
}

export class Core {
	readonly opts: ResolvedOptions;
	readonly clock: Clock;
	readonly state: EmulatorState;
	faults: EmulatorFaults;
	readonly agentConfig = new Map<number, AgentConfig>();
	readonly deliveries: Delivery[] = [];
	readonly requests: RecordedRequest[] = [];
	executionCount = 0;
	/** Requests answered with the gateway's 524 page. */
	gatewayTimeouts = 0;
	readonly ids = { response: 1001, file: 501, memory: 1, collection: 2, webhook: 1 };
	readonly engine: ExecutionEngine;
	readonly webhooks: WebhookDispatcher;
	/** Set by the server once listening. */
	listenOrigin = '';
	/** The storage host (signed uploads, generated files), set by PlatformEmulator. */
	storage: StorageServer | null = null;
	stopped = false;

	constructor(options: EmulatorOptions = {}) {
		this.opts = resolveOptions(options);
		this.clock = new Clock(this.opts.timeScale);
		this.faults = { ...DEFAULT_FAULTS, ...(options.faults ?? {}) };
		this.state = {
			agents: new Map(),
			responses: new Map(),
			files: new Map(),
			memories: new Map(),
			collections: new Map(),
			webhooks: new Map(),
			resources: new Map(),
		};
		seedState(this);
		this.engine = new ExecutionEngine(this);
		this.webhooks = new WebhookDispatcher(this);
	}

	get basePath(): string {
		return this.opts.basePath;
	}

	origin(): string {
		return this.listenOrigin;
	}

	nextId(kind: keyof Core['ids']): number {
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

	stop(): void {
		this.stopped = true;
		this.clock.stop();
		this.engine.stop();
		this.webhooks.stop();
	}
}
