/** What the emulator's tests (a file per resource) share: the emulator (its hooks run in each file that imports this), requests, field sets and readers. */
import { PlatformEmulator, startEmulator } from '../../../dev/emulator';

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export let emu: PlatformEmulator;

beforeAll(async () => {
	emu = await startEmulator({ timeScale: 20, quiet: true });
});

afterAll(async () => {
	await emu.stop();
});

afterEach(() => {
	emu.resetFaults();
});

export function headers(
	e: PlatformEmulator,
	extra: Record<string, string> = {},
): Record<string, string> {
	return {
		Authorization: `Bearer ${e.apiKey}`,
		'x-workspace-id': e.workspaceId,
		Accept: 'application/json',
		...extra,
	};
}

export async function call(
	path: string,
	init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
	e: PlatformEmulator = emu,
) {
	const h = headers(e, init.headers);
	let body: string | undefined;
	if (init.body !== undefined) {
		body = JSON.stringify(init.body);
		h['Content-Type'] = 'application/json';
	}
	const res = await fetch(e.url + path, {
		method: init.method ?? (body ? 'POST' : 'GET'),
		headers: h,
		body,
	});
	const text = await res.text();
	let json: Json = {};
	try {
		json = text ? JSON.parse(text) : {};
	} catch {
		/* not JSON */
	}
	return { status: res.status, json, text, headers: res.headers };
}

export const keys = (o: object) => Object.keys(o).sort();
export const sorted = (a: string[]) => [...a].sort();

export const LARAVEL_KEYS = sorted([
	'current_page',
	'data',
	'first_page_url',
	'from',
	'last_page',
	'last_page_url',
	'links',
	'next_page_url',
	'path',
	'per_page',
	'prev_page_url',
	'to',
	'total',
]);
export const AGENT_KEYS = sorted([
	'id',
	'title',
	'description',
	'long_description',
	'workspace_id',
	'visibility',
	'slug',
	'active',
	'type',
	'questions',
	'created_at',
	'updated_at',
	'created_by',
]);
export const RESPONSE_KEYS = sorted([
	'id',
	'status',
	'input',
	'output',
	'error',
	'credits',
	'root_id',
	'created_at',
	'updated_at',
	'template_id',
]);
export const STREAM_KEYS = sorted([
	'id',
	'status',
	'output',
	'error',
	'credits',
	'root_id',
	'created_at',
	'updated_at',
	'template_id',
]);
export const FILE_KEYS = sorted([
	'id',
	'object',
	'created_at',
	'bytes',
	'filename',
	'credits',
	'status',
]);
export const MICRO_TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
export const FILE_TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;

export function chatBody(agent: Json, text: string, extra: Json = {}): Json {
	const q = (name: string) => agent.questions.find((x: Json) => x.name === name);
	const answers = { temperature: '0.5', model: q('model').options[0], tools: 'no-tools' };
	return { answers, ...answers, messages: [{ role: 'user', content: text }], ...extra };
}

export async function firstAgent(type: string): Promise<Json> {
	const { json } = await call(`/agents?type=${type}&per_page=1`);
	const { json: agent } = await call(`/agents/${json.data[0].id}`);
	return agent;
}

/** Reads an SSE response; returns the data payloads and whether the stream ended with an error. */
export async function readSse(res: Response): Promise<{ events: string[]; error: boolean }> {
	const reader = res.body!.getReader();
	const decoder = new TextDecoder();
	let buf = '';
	const events: string[] = [];
	let error = false;
	try {
		for (;;) {
			const { done, value } = await reader.read();
			if (done) break;
			buf += decoder.decode(value, { stream: true });
			let i: number;
			while ((i = buf.indexOf('\n\n')) >= 0) {
				const block = buf.slice(0, i);
				buf = buf.slice(i + 2);
				for (const line of block.split('\n'))
					if (line.startsWith('data: ')) events.push(line.slice(6));
			}
		}
	} catch {
		error = true;
	}
	return { events, error };
}

export async function pollResponse(
	id: number,
	until: (r: Json) => boolean,
	e: PlatformEmulator = emu,
): Promise<Json> {
	let last: Json = {};
	for (let i = 0; i < 200; i++) {
		last = (await call(`/agent-responses/${id}`, {}, e)).json;
		if (until(last)) return last;
		await new Promise((r) => setTimeout(r, 25));
	}
	throw new Error(`response ${id} never satisfied the condition: ${JSON.stringify(last)}`);
}

// -------------------------------------------------------------------------------------------------
