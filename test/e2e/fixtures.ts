/**
 * Workflow fixtures of the end-to-end tests (credentials and the examples: dev/n8n/examples.ts).
 *
 * Workflows live as JSON in test/e2e/workflows/<name>.json. A string that is exactly
 * "{{NAME}}" is replaced by the value of NAME (any JSON value: a number stays a number);
 * "{{NAME}}" inside a longer string is replaced by the value as text. Placeholders are
 * upper case without spaces, so n8n expressions such as "={{ $json.id }}" are left alone.
 * Every workflow's "id" is 16 characters (n8n's own id shape).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import type { PlatformEmulator } from '../../dev/emulator';
import { importable, type WorkflowFixture } from '../../dev/n8n/examples';
import { lineByName, selectedLines, type N8nLine } from '../../dev/n8n/harness';

export const WORKFLOWS_DIR = join(__dirname, 'workflows');

export type Placeholders = Record<string, string | number | boolean | null | object>;

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
	const filled = fillPlaceholders(
		JSON.parse(readFileSync(file, 'utf8')),
		vars,
		file,
	) as WorkflowFixture;
	return importable({ ...filled, ...overrides }, file);
}

/** Loads several workflow fixtures with the same placeholder values. */
export function loadWorkflows(names: string[], vars: Placeholders = {}): WorkflowFixture[] {
	return names.map((n) => loadWorkflow(n, vars));
}

/**
 * A chat agent's placeholders for the fixtures that run it: its ID and the first of its Model,
 * Tools and Temperature choices.
 */
export function chatAgentVars(
	emu: { firstOptions(agentId: number): { model: string; tools: string; temperature: string } },
	agentId: number,
): Placeholders {
	const chat = emu.firstOptions(agentId);
	return {
		AGENT_ID: String(agentId),
		MODEL: chat.model,
		TOOLS: chat.tools,
		TEMPERATURE: chat.temperature,
	};
}

/**
 * POSTs JSON to an active workflow's webhook whose answer is streamed, asking again while n8n
 * answers 404 (activation registers the webhook a moment after the API call returns); the response
 * is returned unread, for the caller to read as it comes.
 */
export async function postToStreamingWebhook(
	baseUrl: string,
	path: string,
	body: unknown,
	attempts = 40,
): Promise<Response> {
	for (let attempt = 1; ; attempt++) {
		const response = await fetch(`${baseUrl}/webhook/${path}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		if (response.status !== 404 || attempt >= attempts) return response;
		await response.text();
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/**
 * Reads a streaming webhook's answer (n8n's JSON lines) to its end: its text, and when its first
 * piece (an `item` message) arrived.
 */
export async function readStreamedAnswer(
	response: Response,
): Promise<{ text: string; firstPieceAt: number | undefined }> {
	let firstPieceAt: number | undefined;
	let text = '';
	const decoder = new TextDecoder();
	for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
		text += decoder.decode(chunk, { stream: true });
		if (firstPieceAt === undefined && text.includes('"item"')) firstPieceAt = Date.now();
	}
	return { text, firstPieceAt };
}

/**
 * A workflow fixture whose Webhook nodes' paths end in `-<tag>`: a path is not an id, so a file
 * that activates a fixture another file activates too gives its copy paths of its own on the
 * line's shared n8n (lineN8n.ts).
 */
export function withOwnPaths(workflow: WorkflowFixture, tag: string): WorkflowFixture {
	return {
		...workflow,
		nodes: workflow.nodes.map((node) =>
			node.type === 'n8n-nodes-base.webhook'
				? { ...node, parameters: { ...node.parameters, path: `${node.parameters.path}-${tag}` } }
				: node,
		),
	};
}
/** The text pieces of a streamed answer (n8n's NDJSON: begin, item…, end) and when each came. */
export async function streamedPieces(
	response: Response,
): Promise<Array<{ text: string; at: number }>> {
	const pieces: Array<{ text: string; at: number }> = [];
	const decoder = new TextDecoder();
	let buffered = '';
	for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
		buffered += decoder.decode(chunk, { stream: true });
		const lines = buffered.split('\n');
		buffered = lines.pop() ?? '';
		for (const line of lines.filter((l) => l.trim())) {
			const message = JSON.parse(line) as { type: string; content?: string };
			if (message.type === 'item' && message.content)
				pieces.push({ text: message.content, at: Date.now() });
		}
	}
	return pieces;
}

/**
 * Runs `run` with the agent's chat completions answered by `replies` (the model's replies, written
 * out by the test: the emulator's `replies`), and none after it, whatever happens.
 */
export async function withReplies<T>(
	emu: PlatformEmulator,
	agentId: number,
	replies: string[],
	run: () => Promise<T>,
): Promise<T> {
	emu.configureAgent(agentId, { replies });
	try {
		return await run();
	} finally {
		emu.configureAgent(agentId, { replies: undefined });
	}
}

/**
 * The one way a test picks n8n lines: `describe.each` over the selected lines (E2E_N8N_LINES),
 * among `only` when given (['2.x'] for the files of the AI node SDK, which 1.x lacks); with none
 * of them selected (E2E_N8N_LINES=1) the file's suite is skipped, as jest refuses an empty table.
 */
export function describeEachLine(only: Array<N8nLine['line']> = ['1.x', '2.x']) {
	const lines = selectedLines().filter((line) => only.includes(line.line));
	return lines.length ? describe.each(lines) : describe.skip.each(only.map(lineByName));
}
