/**
 * The emulator's options resolved to their defaults, and the faults it starts with (none).
 */
import type { EmulatorFaults, EmulatorOptions, ModelEndpoint } from './types';

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
	model: ModelEndpoint | undefined;
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
	errorBodyCut: null,
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
		model: o.model,
	};
}
