/**
 * Agent Platform emulator: a real HTTP server on loopback implementing the whole API of
 * the platform (its specification, and production's behaviour where they differ: see
 * docs/platform-assumptions.md) in memory, with fault injection
 * and request recording for tests.
 *
 *   const emu = await startEmulator({ timeScale: 20 });
 *   // emu.url → http://127.0.0.1:<port> (paths at the root, as production; options.basePath adds one), emu.apiKey, emu.workspaceId
 *   await emu.stop();
 */
import { Platform } from './platform';
import { EmulatorServer } from './server';
import { StorageServer } from './storage';
import type {
	AgentConfig,
	Delivery,
	EmulatorFaults,
	EmulatorOptions,
	EmulatorState,
	RecordedRequest,
	StorageRequest,
} from './types';
import { DEFAULT_COLLECTION_ID } from './types';
import { platformFiles } from './generatedFiles';
import { waitFor } from '../n8n/wait';

export type {
	AgentConfig,
	Delivery,
	EmulatorFaults,
	EmulatorOptions,
	EmulatorState,
	Question,
	RecordedMultipart,
	RecordedRequest,
	StorageRequest,
	StoredAgent,
	StoredFile,
	StoredRun,
	StoredWebhook,
} from './types';
export {
	ALWAYS_FAILS_ERROR,
	CHAT_AGENT,
	FAILING_AGENT,
	IMAGE_AGENT,
	TEMPERATURE_OPTIONS,
	TEXT_AGENT,
	VIDEO_AGENT,
} from './seed';
export { ALLOWED_EXTENSIONS } from './files';
export { DELIVERY_USER_AGENT } from './webhooks';
export { GENERATED_MP4, GENERATED_PNG } from './media';

export class PlatformEmulator {
	private readonly core: Platform;
	private readonly http: EmulatorServer;
	private readonly storage: StorageServer;
	private baseUrl = '';
	private started = false;
	private stopping: Promise<void> | null = null;

	constructor(options: EmulatorOptions = {}) {
		this.core = new Platform(options);
		this.http = new EmulatorServer(this.core);
		this.storage = new StorageServer(this.core);
		this.core.storage = this.storage;
	}

	/** Starts listening; resolves the base URL (http://host:port plus the base path, none by default). */
	async start(): Promise<string> {
		if (this.started) return this.baseUrl;
		await this.storage.listen(this.core.opts.host, this.core.opts.storagePort);
		this.baseUrl = await this.http.listen();
		this.started = true;
		return this.baseUrl;
	}

	/** Closes all sockets, stops timers and in-flight webhook deliveries. */
	stop(): Promise<void> {
		if (!this.stopping) {
			this.core.stop();
			this.stopping = Promise.all([this.http.close(), this.storage.close()]).then(() => undefined);
		}
		return this.stopping;
	}

	get url(): string {
		return this.baseUrl;
	}

	/** The storage host's origin (signed uploads, generated files): another port than the API. */
	get storageUrl(): string {
		return this.storage.origin;
	}

	/** Every request the storage host received, with its headers, size and sha256. */
	get storageRequests(): StorageRequest[] {
		return this.storage.requests;
	}

	get apiKey(): string {
		return this.core.opts.apiKey;
	}

	get workspaceId(): string {
		return this.core.opts.workspaceId;
	}

	/** Every request received (outside /_emulator), in order. */
	get requests(): RecordedRequest[] {
		return this.core.requests;
	}

	clearRequests(): void {
		this.core.requests.length = 0;
		this.storage.requests.length = 0;
	}

	/** The first option the agent offers for Model, Tools and Temperature: answers it accepts. */
	firstOptions(agentId: number): { model: string; tools: string; temperature: string } {
		const questions = this.core.state.agents.get(agentId)!.questions;
		const first = (name: string) => String(questions.find((q) => q.name === name)!.options![0]);
		return { model: first('model'), tools: first('tools'), temperature: first('temperature') };
	}

	/**
	 * Adds `count` memories straight into the state (no request recorded), each "seeded <id>",
	 * with ids above every id already there; returns their ids in order.
	 */
	seedMemories(count: number, collectionId: number = DEFAULT_COLLECTION_ID): number[] {
		const memories = this.core.state.memories;
		let next = Math.max(700_000, ...memories.keys()) + 1;
		const ids: number[] = [];
		for (let i = 0; i < count; i++, next++) {
			memories.set(next, {
				id: next,
				user_id: 7,
				collection_id: collectionId,
				memory: `seeded ${next}`,
				credits: 0,
			});
			ids.push(next);
		}
		return ids;
	}

	/** Merges the given faults into the current ones (rate-limit buckets restart when the rate changes). */
	setFaults(f: Partial<EmulatorFaults>): void {
		this.core.setFaults(f);
	}

	/** Back to no faults at all (the defaults, not the constructor's faults); restarts rate-limit buckets. */
	resetFaults(): void {
		this.core.resetFaults();
		this.http.resetRateLimits();
	}

	get faults(): EmulatorFaults {
		return { ...this.core.faults };
	}

	/** Per-agent behaviour of later executions (merged into earlier configuration). */
	configureAgent(agentId: number, cfg: AgentConfig): void {
		this.core.agentConfig.set(agentId, { ...(this.core.agentConfig.get(agentId) ?? {}), ...cfg });
	}

	/** Serves a file at `<url>/generated-files/<name>` to authenticated callers; resolves its URL. */
	serveGeneratedFile(name: string, body: Buffer, contentType: string): string {
		platformFiles(this.core).set(name, { body, contentType });
		return `${this.baseUrl}/generated-files/${encodeURIComponent(name)}`;
	}

	/** Agent executions created so far (execute + openai). */
	get runCount(): number {
		return this.core.runCount;
	}

	get deliveries(): Delivery[] {
		return this.core.deliveries;
	}

	/** The in-memory store (live maps). */
	get state(): EmulatorState {
		return this.core.state;
	}

	/** Polls `predicate` every 10 ms until true; rejects after timeoutMs (default 5000). */
	async waitFor(predicate: () => boolean, timeoutMs = 5000): Promise<void> {
		await waitFor('a condition on the emulator', predicate, { timeoutMs, intervalMs: 10 });
	}
}

export async function startEmulator(options?: EmulatorOptions): Promise<PlatformEmulator> {
	const emu = new PlatformEmulator(options);
	await emu.start();
	return emu;
}
