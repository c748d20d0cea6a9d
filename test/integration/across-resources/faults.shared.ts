/** What the tests split from faults.test.ts share: set-up (its hooks run in each file that imports this), helpers and fixtures. */
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { POLLING } from '../../../nodes/AgentPlatform/helpers/runs/polling';
import { RECOVERY } from '../../../nodes/AgentPlatform/helpers/runs/runRecovery';
import { REQUEST_TIMEOUT, RETRY } from '../../../nodes/AgentPlatform/transport/retryPolicy';
import type { EmulatorFaults, PlatformEmulator, RecordedRequest } from '../../../dev/emulator';
import type { RunNodeResult } from '../../infra/n8n/runNode';
import { byId, credentialsFor } from '../../infra/n8n/credentials';
import { binaryItem, runNode } from '../../infra/n8n/runNode';
import { useEmulator } from '../../infra/useEmulator';
import {
	CHAT_AGENT as CHAT,
	TEXT_AGENT as TEXT,
	VIDEO_AGENT as VIDEO,
} from '../../../dev/emulator';

export { CHAT, TEXT, VIDEO };
export const STATUSES_5XX = [502, 503, 504] as const;

export let emu: PlatformEmulator;
export const savedRetry = { ...RETRY };
export const savedRecovery = { ...RECOVERY };
export const savedTimeout = { ...REQUEST_TIMEOUT };
export const savedPolling = { ...POLLING };
export const RETRY_AFTER = 0.4;
/** The request timeout of the cases where the platform never answers. */
export const NO_ANSWER_TIMEOUT_MS = 1000;

useEmulator(
	{
		apiKey: 'sk-fault-matrix-0f3c',
		timeScale: 100,
		executionSeconds: 5,
		quiet: true,
		// 15 a page whatever is asked (the documented default): Get Many of 40 agents is 3 pages
		maxPerPage: 15,
	},
	(started) => (emu = started),
);
beforeAll(() => {
	// The same rules with shorter waits: backoff from 10-20 ms doubling. The request timeout stays
	// long here (an answer of a busy machine took over a second): the cases of a platform that never
	// answers set 1 s (NO_ANSWER_TIMEOUT_MS).
	Object.assign(RETRY, { baseDelayMs: 20, maxDelayMs: 200 });
	REQUEST_TIMEOUT.defaultMs = 30_000;
	POLLING.minIntervalMs = 100;
	RECOVERY.pauseMs = 20;
});
afterAll(async () => {
	Object.assign(RETRY, savedRetry);
	Object.assign(REQUEST_TIMEOUT, savedTimeout);
	Object.assign(POLLING, savedPolling);
	Object.assign(RECOVERY, savedRecovery);
});
beforeEach(() => {
	emu.state.files.clear();
	emu.state.webhooks.clear();
});

// ---------------------------------------------------------------------------------------------
// The operation kinds
// ---------------------------------------------------------------------------------------------

export let nextSeeded = 90_000;

/** A memory of our own on the platform, so that each update or delete has one to work on. */
export function seededMemory(): number {
	const id = ++nextSeeded;
	emu.state.memories.set(id, {
		id,
		user_id: 7,
		collection_id: 1,
		memory: `seeded ${id}`,
		credits: 0,
	});
	return id;
}
export function seededCollection(): number {
	const id = ++nextSeeded;
	emu.state.collections.set(id, { id, user_id: 7, name: `c${id}`, display_name: `c${id}` });
	return id;
}
export const chatSettings = () => emu.firstOptions(CHAT);

export interface Kind {
	name: string;
	method: 'GET' | 'PATCH' | 'PUT' | 'DELETE' | 'POST';
	parameters(): INodeParameters;
	items?(): INodeExecutionData[];
	/** What the operation leaves on the platform, counted. */
	effect?(): number;
	/** Output items of one successful run with the default single input item. */
	outputs?: number;
}

export const READS: Kind[] = [
	{
		name: 'Agent → Get (GET)',
		method: 'GET',
		parameters: () => ({ resource: 'agent', operation: 'get', agentId: byId(1) }),
	},
	{
		name: 'Agent → Get Many, Return All (GET, 3 pages)',
		method: 'GET',
		parameters: () => ({ resource: 'agent', operation: 'getAll', returnAll: true }),
		outputs: 40,
	},
	{
		name: 'Memory → Update (PATCH)',
		method: 'PATCH',
		parameters: () => ({
			resource: 'memory',
			operation: 'update',
			memoryId: String(seededMemory()),
			memory: 'changed',
		}),
	},
	{
		name: 'Memory Collection → Rename (PUT)',
		method: 'PUT',
		parameters: () => ({
			resource: 'memoryCollection',
			operation: 'rename',
			collectionId: byId(seededCollection()),
			name: `renamed ${nextSeeded}`,
		}),
	},
	{
		name: 'Memory → Delete (DELETE)',
		method: 'DELETE',
		parameters: () => ({
			resource: 'memory',
			operation: 'delete',
			memoryId: String(seededMemory()),
		}),
	},
];

// Each run asks something new, so that a cut start call's lookup finds only its own run.
export let asked = 0;
export const textAnswers = () => ({
	answers: { mappingMode: 'defineBelow', value: { topic: `faults ${++asked}`, tone: 'formal' } },
});
export const runs = () => emu.runCount;

export const EXECUTE_WAIT: Kind = {
	name: 'Agent → Execute, wait for completion (POST, spends credits)',
	method: 'POST',
	parameters: () => ({
		resource: 'agent',
		operation: 'execute',
		agentId: byId(TEXT),
		...textAnswers(),
	}),
	effect: runs,
};
export const EXECUTE_START: Kind = {
	name: 'Agent → Execute, start only (POST, spends credits)',
	method: 'POST',
	parameters: () => ({
		resource: 'agent',
		operation: 'execute',
		agentId: byId(TEXT),
		responseMode: 'start',
		...textAnswers(),
	}),
	effect: runs,
};
/**
 * Agent → Execute's start call, when it may have reached the platform unanswered (a gateway 502/504
 * page, a cut connection, a timeout, a garbled 2xx), is looked up, never sent again
 * (agent/execute-run-recovery.test.ts): a run it started is carried on, and none found fails in these words.
 */
export const LOOKED_UP = new Set<Kind>([EXECUTE_WAIT, EXECUTE_START]);
export const lookedUp = (kind: Kind, status?: number) =>
	LOOKED_UP.has(kind) && (status === undefined || status === 502 || status === 504);
export const LOST_RUN = 'The start of the run got no answer, and the platform may have started it';

export const CHAT_COMPLETION: Kind = {
	name: 'Agent → Chat Completion (POST, spends credits)',
	method: 'POST',
	parameters: () => ({
		resource: 'agent',
		operation: 'chatCompletion',
		agentId: byId(CHAT),
		message: 'Hi',
		...chatSettings(),
	}),
	effect: runs,
};
export const MEMORY_CREATE: Kind = {
	name: 'Memory → Create (POST)',
	method: 'POST',
	parameters: () => ({
		resource: 'memory',
		operation: 'create',
		memory: 'remember the fault matrix',
	}),
	effect: () => emu.state.memories.size,
};
export const FILE_UPLOAD: Kind = {
	name: 'File → Upload (POST, multipart)',
	method: 'POST',
	parameters: () => ({ resource: 'file', operation: 'upload', binaryPropertyName: 'data' }),
	items: () => [
		binaryItem(Buffer.from('fault matrix notes\n'), {
			fileName: 'notes.txt',
			mimeType: 'text/plain',
		}),
	],
	effect: () => emu.state.files.size,
};
export const WEBHOOK_CREATE: Kind = {
	name: 'Webhook → Create (POST)',
	method: 'POST',
	parameters: () => ({
		resource: 'webhook',
		operation: 'create',
		agentId: byId(VIDEO),
		url: 'https://hooks.example.test/agent-runs',
		method: 'POST',
		status: 'active',
	}),
	effect: () => emu.state.webhooks.size,
};
export const POSTS: Kind[] = [
	EXECUTE_WAIT,
	EXECUTE_START,
	CHAT_COMPLETION,
	MEMORY_CREATE,
	FILE_UPLOAD,
	WEBHOOK_CREATE,
];

export async function run(kind: Kind, items?: INodeExecutionData[]): Promise<RunNodeResult> {
	return await runNode({
		parameters: kind.parameters(),
		items: items ?? kind.items?.(),
		credentials: credentialsFor(emu),
	});
}

export const posts = () => emu.requests.filter((r) => r.method === 'POST');

/** Turns the faults off once `count` answers matched, so that a retry after them succeeds. */
export function healAfter(count: number, answered: (r: RecordedRequest) => boolean): Promise<void> {
	return emu
		.waitFor(() => emu.requests.filter(answered).length >= count, 20_000)
		.then(() => emu.resetFaults());
}

/** A clear error: plain words, the status where there was one, no parser message or stack trace. */
export function expectPlainWords(error: Error | undefined): void {
	expect(error).toBeDefined();
	const text = `${error!.message}\n${(error as { description?: string }).description ?? ''}`;
	expect(text).not.toMatch(
		/SyntaxError|Unexpected (token|end)|JSON\.parse|in JSON at position|\n\s+at .+:\d+:\d+/,
	);
}

/**
 * The matrix's row for POSTs under a fault that loses their answer: `fault` on every POST, each
 * kind sent once, nothing left behind, a plain-words error (`message`, or the lost run's words
 * where the run is looked up).
 */
export function itSendsOnce(kinds: Kind[], fault: Partial<EmulatorFaults>, message: string): void {
	it.each(kinds.map((kind) => [kind.name, kind] as const))(
		'%s: sent once; a plain-words error',
		async (_name, kind) => {
			emu.setFaults({ ...fault, faultMethods: ['POST'] });
			const before = kind.effect!();
			const { error } = await run(kind);
			expect(error?.message).toBe(lookedUp(kind) ? LOST_RUN : message);
			expect(posts()).toHaveLength(1);
			expect(kind.effect!() - before).toBe(0);
			expectPlainWords(error);
		},
	);
}

// ---------------------------------------------------------------------------------------------
// The matrix
// ---------------------------------------------------------------------------------------------
