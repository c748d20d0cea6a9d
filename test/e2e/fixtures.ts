/**
 * Workflow and credential fixtures for the end-to-end tests.
 *
 * Workflows live as JSON in test/e2e/workflows/<name>.json. A string that is exactly
 * "{{NAME}}" is replaced by the value of NAME (any JSON value: a number stays a number);
 * "{{NAME}}" inside a longer string is replaced by the value as text. Placeholders are
 * upper case without spaces, so n8n expressions such as "={{ $json.id }}" are left alone.
 * Every workflow's "id" is 16 characters (n8n's own id shape).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const WORKFLOWS_DIR = join(__dirname, 'workflows');
import { CREDENTIAL_TYPE } from '../../dev/constants';

export { CREDENTIAL_TYPE };

export type Placeholders = Record<string, string | number | boolean | null | object>;

export interface WorkflowFixture {
	id: string;
	name: string;
	nodes: Array<{
		name: string;
		type: string;
		parameters: Record<string, unknown>;
		[key: string]: unknown;
	}>;
	connections: Record<string, unknown>;
	[key: string]: unknown;
}

export interface CredentialFixture {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown>;
}

const PLACEHOLDER = /\{\{([A-Z][A-Z0-9_]*)\}\}/g;
const WHOLE_PLACEHOLDER = /^\{\{([A-Z][A-Z0-9_]*)\}\}$/;

/** Replaces the placeholders in a parsed JSON value; throws on a placeholder without a value. */
export function fillPlaceholders<T>(value: T, vars: Placeholders, where = 'fixture'): T {
	const lookup = (name: string) => {
		if (!(name in vars)) throw new Error(`${where}: no value for placeholder {{${name}}}`);
		return vars[name];
	};
	const walk = (v: unknown): unknown => {
		if (typeof v === 'string') {
			const whole = WHOLE_PLACEHOLDER.exec(v);
			if (whole) return lookup(whole[1]);
			return v.replace(PLACEHOLDER, (_m, name: string) => {
				const r = lookup(name);
				return typeof r === 'string' ? r : JSON.stringify(r);
			});
		}
		if (Array.isArray(v)) return v.map(walk);
		if (v && typeof v === 'object') {
			return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
		}
		return v;
	};
	return walk(value) as T;
}

/** The names of all workflow fixtures (file names without .json). */
export function workflowNames(): string[] {
	return readdirSync(WORKFLOWS_DIR)
		.filter((f) => f.endsWith('.json'))
		.map((f) => f.slice(0, -'.json'.length))
		.sort();
}

/**
 * Loads test/e2e/workflows/<name>.json with its placeholders filled. `overrides` replaces
 * top-level fields, e.g. `{ id, name }` to import one fixture twice with other values.
 */
export function loadWorkflow(
	name: string,
	vars: Placeholders = {},
	overrides: Partial<WorkflowFixture> = {},
): WorkflowFixture {
	const file = join(WORKFLOWS_DIR, `${name}.json`);
	const workflow = {
		...(fillPlaceholders(JSON.parse(readFileSync(file, 'utf8')), vars, file) as WorkflowFixture),
		...overrides,
	};
	if (typeof workflow.id !== 'string' || workflow.id.length !== 16) {
		throw new Error(
			`${file}: "id" must be a 16-character string (got ${JSON.stringify(workflow.id)})`,
		);
	}
	return { active: false, settings: {}, ...workflow };
}

/** Loads several workflow fixtures with the same placeholder values. */
export function loadWorkflows(names: string[], vars: Placeholders = {}): WorkflowFixture[] {
	return names.map((n) => loadWorkflow(n, vars));
}

/** A 16-character id from a readable label (ids must be unique per instance). */
export function fixtureId(label: string): string {
	const cleaned = label.replace(/[^A-Za-z0-9]/g, '');
	if (cleaned.length > 16) throw new Error(`fixtureId: "${label}" is longer than 16 characters`);
	return cleaned.padEnd(16, '0');
}

export interface PlatformEndpoint {
	/** Base URL of the platform API, e.g. the emulator's `emu.url`. */
	url: string;
	apiKey: string;
	workspaceId: number | string;
}

/** An Agent Platform credential for `n8n import:credentials` (plain data; n8n encrypts it). */
export function agentPlatformCredential(
	platform: PlatformEndpoint,
	opts: { id?: string; name?: string; requestsPerSecond?: number } = {},
): CredentialFixture {
	return {
		id: opts.id ?? fixtureId('credEmulator'),
		name: opts.name ?? 'Agent Platform (emulator)',
		type: CREDENTIAL_TYPE,
		data: {
			baseUrl: platform.url,
			apiKey: platform.apiKey,
			workspaceId: String(platform.workspaceId), // a string field in the credential
			// the emulator limits nothing unless a test asks it to: pace only where a test says so
			requestsPerSecond: opts.requestsPerSecond ?? 1000,
		},
	};
}

// ---------------------------------------------------------------------------
// Example workflows (examples/*.json, for users): imported by `npm start` and run by
// test/e2e/examples.e2e.test.ts. They carry no placeholders: their credentials are referenced by
// the fixed IDs below, which `npm start` and the test give the credentials they import.
// ---------------------------------------------------------------------------

export const EXAMPLES_DIR = join(__dirname, '..', '..', 'examples');

/** The credentials the example workflows reference (the same as `npm start` creates). */
export const EXAMPLE_CREDENTIALS = {
	agentPlatform: { id: 'agentPlatformDev', name: 'Agent Platform (local emulator)' },
	openAi: { id: 'openAiEmulatorDev', name: 'OpenAI (local emulator, scripted model)' },
} as const;

/** The file names (without .json) of the example workflows. */
export function exampleNames(): string[] {
	return readdirSync(EXAMPLES_DIR)
		.filter((f) => f.endsWith('.json'))
		.map((f) => f.slice(0, -'.json'.length))
		.sort();
}

/** Loads examples/<name>.json as it is (checking its 16-character id). */
export function loadExample(name: string): WorkflowFixture {
	const file = join(EXAMPLES_DIR, `${name}.json`);
	const workflow = JSON.parse(readFileSync(file, 'utf8')) as WorkflowFixture;
	if (typeof workflow.id !== 'string' || workflow.id.length !== 16) {
		throw new Error(
			`${file}: "id" must be a 16-character string (got ${JSON.stringify(workflow.id)})`,
		);
	}
	return { active: false, settings: {}, ...workflow };
}

/**
 * n8n's OpenAI credential pointed at the emulator's chat-completions endpoint of one chat agent
 * (`{emulator}/agents/{id}/openai`), with the workspace header the platform requires. With function
 * definitions in `tools` the emulator answers as a scripted tool-calling model (dev/emulator/toolCalling.ts).
 */
export function openAiEmulatorCredential(
	platform: PlatformEndpoint,
	agentId: number,
	opts: { id?: string; name?: string } = {},
): CredentialFixture {
	return {
		id: opts.id ?? EXAMPLE_CREDENTIALS.openAi.id,
		name: opts.name ?? EXAMPLE_CREDENTIALS.openAi.name,
		type: 'openAiApi',
		data: {
			apiKey: platform.apiKey,
			url: `${platform.url.replace(/\/+$/, '')}/agents/${agentId}/openai`,
			header: true,
			headerName: 'x-workspace-id',
			headerValue: String(platform.workspaceId),
		},
	};
}
