/**
 * What n8n is given to import, shared by npm start, npm run screenshots and the end-to-end tests:
 * the Agent Platform and OpenAI credentials pointed at a platform (the emulator), and the example
 * workflows of examples/ (for users). The examples carry no placeholders: their credentials are
 * referenced by the fixed IDs in EXAMPLE_CREDENTIALS, which everything that imports them uses.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import { CREDENTIAL_TYPE } from '../constants';

export { CREDENTIAL_TYPE };

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

export interface PlatformEndpoint {
	/** Base URL of the platform API, e.g. the emulator's `emu.url`. */
	url: string;
	apiKey: string;
	workspaceId: number | string;
}

/** A 16-character id from a readable label (ids must be unique per instance). */
export function fixtureId(label: string): string {
	const cleaned = label.replace(/[^A-Za-z0-9]/g, '');
	if (cleaned.length > 16) throw new Error(`fixtureId: "${label}" is longer than 16 characters`);
	return cleaned.padEnd(16, '0');
}

/** A workflow ready to import: inactive unless it says otherwise, its id n8n's 16-character shape. */
export function importable(workflow: WorkflowFixture, file: string): WorkflowFixture {
	if (typeof workflow.id !== 'string' || workflow.id.length !== 16) {
		throw new Error(
			`${file}: "id" must be a 16-character string (got ${JSON.stringify(workflow.id)})`,
		);
	}
	return { active: false, settings: {}, ...workflow };
}

/**
 * An Agent Platform credential for `n8n import:credentials` (plain data; n8n encrypts it).
 * Requests per Second: 1000 unless given, since the emulator limits nothing unless a test asks it
 * to; `null` leaves the field out, so n8n applies the credential's default as for a user who never
 * changed it.
 */
export function agentPlatformCredential(
	platform: PlatformEndpoint,
	opts: { id?: string; name?: string; requestsPerSecond?: number | null } = {},
): CredentialFixture {
	const requestsPerSecond = opts.requestsPerSecond === undefined ? 1000 : opts.requestsPerSecond;
	return {
		id: opts.id ?? fixtureId('credEmulator'),
		name: opts.name ?? 'Agent Platform (emulator)',
		type: CREDENTIAL_TYPE,
		data: {
			baseUrl: platform.url,
			apiKey: platform.apiKey,
			workspaceId: String(platform.workspaceId), // a string field in the credential
			...(requestsPerSecond === null ? {} : { requestsPerSecond }),
		},
	};
}

export const EXAMPLES_DIR = join(__dirname, '..', '..', 'examples');

/** The credentials the example workflows reference (the same as `npm start` creates). */
export const EXAMPLE_CREDENTIALS = {
	agentPlatform: { id: 'agentPlatformDev', name: 'Agent Platform (local emulator)' },
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
	return importable(JSON.parse(readFileSync(file, 'utf8')) as WorkflowFixture, file);
}

/**
 * n8n's OpenAI credential pointed at the emulator's chat-completions endpoint of one chat agent
 * (`{emulator}/agents/{id}/openai`), with the workspace header the platform requires: for the
 * measurement of what n8n's own OpenAI Chat Model shows (test/measure/). The platform answers
 * messages; function definitions in `tools` it refuses, as `tools` names one of the agent's tools.
 */
export function openAiEmulatorCredential(
	platform: PlatformEndpoint,
	agentId: number,
	opts: { id?: string; name?: string } = {},
): CredentialFixture {
	return {
		id: opts.id ?? 'openAiEmulator',
		name: opts.name ?? 'OpenAI (local emulator)',
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
