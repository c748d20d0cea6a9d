/**
 * Proves the in-process harness (test/infra/n8n/): the Agent Platform node runs through
 * n8n-core's WorkflowExecute and real request helpers against a small loopback HTTP server.
 */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';

import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { startEmulator } from '../../dev/emulator';
import { startLoopbackServer, type LoopbackServer } from '../../dev/loopback';
import { byId, credentialsFor, type HarnessCredentials } from './n8n/credentials';
import { probeNodeType, listSearch } from './n8n/loadOptions';
import { binaryItem, runNode } from './n8n/runNode';

interface Seen {
	method: string;
	url: string;
	headers: IncomingHttpHeaders;
	remoteAddress?: string;
	/** The client closed the connection before the server answered. */
	abandoned?: boolean;
}

type Handler = (seen: Seen, res: ServerResponse) => void;

/** A tiny platform stand-in whose answers each test sets; it records every request. */
class TestServer {
	readonly seen: Seen[] = [];
	handler: Handler = (_seen, res) => json(res, 404, { message: 'Not found' });
	private server?: LoopbackServer;

	async start(): Promise<string> {
		this.server = await startLoopbackServer((req, res) => {
			const seen: Seen = {
				method: req.method ?? '',
				url: req.url ?? '',
				headers: req.headers,
				remoteAddress: req.socket.remoteAddress,
			};
			this.seen.push(seen);
			res.on('close', () => {
				if (!res.writableEnded) seen.abandoned = true;
			});
			req.resume();
			req.on('end', () => this.handler(seen, res));
		});
		return `${this.server.origin}/api/v1`;
	}

	async stop(): Promise<void> {
		await this.server?.close();
	}
}

function json(res: ServerResponse, status: number, body: unknown): void {
	res.writeHead(status, { 'content-type': 'application/json' });
	res.end(JSON.stringify(body));
}

const agent = (id: number) => ({
	id,
	title: `Agent ${id}`,
	type: 'chat',
	description: `The agent ${id}`,
});

describe('n8n in-process harness', () => {
	const server = new TestServer();
	let credentials: HarnessCredentials;

	beforeAll(async () => {
		credentials = { baseUrl: await server.start(), apiKey: 'test-key-123', workspaceId: '42' };
	});
	afterAll(async () => await server.stop());
	beforeEach(() => {
		server.seen.length = 0;
	});

	const getAgent = { resource: 'agent', operation: 'get', agentId: byId('3') };

	it('runs Agent → Get over loopback with the credential headers, output paired to its item', async () => {
		server.handler = (seen, res) =>
			seen.url === '/api/v1/agents/3'
				? json(res, 200, agent(3))
				: json(res, 404, { message: 'Not found' });

		const { outputs, error } = await runNode({ parameters: getAgent, credentials });

		expect(error).toBeUndefined();
		expect(server.seen).toHaveLength(1);
		const [request] = server.seen;
		expect(request.method).toBe('GET');
		expect(request.remoteAddress).toMatch(/127\.0\.0\.1$/);
		expect(request.headers.authorization).toBe('Bearer test-key-123');
		expect(request.headers['x-workspace-id']).toBe('42');
		expect(request.headers['user-agent']).toBe('n8n'); // n8n's own HTTP client sent it
		expect(outputs).toHaveLength(1);
		expect(outputs[0]).toEqual([{ json: agent(3), pairedItem: { item: 0 } }]);
	});

	it('runs Agent → Get Many with returnAll across pages, one request per page', async () => {
		server.handler = (seen, res) => {
			const url = new URL(seen.url, 'http://x');
			const page = Number(url.searchParams.get('page') ?? 1);
			json(res, 200, {
				data: page === 1 ? [agent(1), agent(2)] : [agent(3)],
				current_page: page,
				last_page: 2,
				per_page: 2,
				total: 3,
			});
		};

		const { outputs, error } = await runNode({
			parameters: { resource: 'agent', operation: 'getAll', returnAll: true, filters: {} },
			credentials,
			items: [{ json: { n: 1 } }],
		});

		expect(error).toBeUndefined();
		expect(outputs[0].map((item) => item.json.id)).toEqual([1, 2, 3]);
		expect(outputs[0].every((item) => JSON.stringify(item.pairedItem) === '{"item":0}')).toBe(true);
		expect(server.seen).toHaveLength(2);
	});

	it('fails the run with a NodeApiError on 403', async () => {
		server.handler = (_seen, res) => json(res, 403, { message: 'Unauthenticated.' });

		const { outputs, error } = await runNode({ parameters: getAgent, credentials });

		expect(error).toBeInstanceOf(NodeApiError);
		expect(error?.message).toBe('The platform rejected the API key');
		expect(outputs).toEqual([]);
	});

	it('with Continue On Fail, puts the error on the item', async () => {
		server.handler = (_seen, res) => json(res, 403, { message: 'Unauthenticated.' });

		const { outputs, error } = await runNode({
			parameters: getAgent,
			credentials,
			items: [{ json: { a: 1 } }, { json: { a: 2 } }],
			continueOnFail: true,
		});

		expect(error).toBeUndefined();
		expect(outputs[0]).toHaveLength(2);
		expect(outputs[0][0].json.error).toBe('The platform rejected the API key');
		expect(outputs[0][1].pairedItem).toEqual({ item: 1 });
	});

	it('with the error output, n8n routes error items there and keeps the rest on the main output', async () => {
		const { outputs, error } = await runNode({
			parameters: {},
			credentials,
			items: [{ json: { a: 1 } }, { json: { a: 2 } }],
			onError: 'continueErrorOutput',
			nodeType: probeNodeType(async function () {
				return [
					[
						{ json: { ok: true }, pairedItem: { item: 0 } },
						{ json: { error: 'Probe failed' }, pairedItem: { item: 1 } },
					],
				];
			}),
		});

		expect(error).toBeUndefined();
		expect(outputs).toHaveLength(2);
		expect(outputs[0]).toEqual([{ json: { ok: true }, pairedItem: { item: 0 } }]);
		// n8n's engine merges the paired input item's json into the error item.
		expect(outputs[1]).toEqual([
			{ json: { a: 2, error: 'Probe failed' }, pairedItem: { item: 1 } },
		]);
	});

	it("with the error output, the Agent Platform node's failed item lands on output 1", async () => {
		server.handler = (_seen, res) => json(res, 403, { message: 'Unauthenticated.' });

		const { outputs, error } = await runNode({
			parameters: getAgent,
			credentials,
			onError: 'continueErrorOutput',
		});

		expect(error).toBeUndefined();
		expect(outputs).toHaveLength(2);
		expect(outputs[0]).toEqual([]);
		expect(outputs[1]).toHaveLength(1);
		expect(outputs[1][0].json.error).toBe('The platform rejected the API key');
		expect(outputs[1][0].pairedItem).toEqual({ item: 0 });
	});

	it('a run n8n refuses to start (parameter issues) comes back as a failed run, with nothing sent', async () => {
		// a required parameter left empty is an issue n8n itself finds before the run
		const { outputs, error, run } = await runNode({
			parameters: { ...getAgent, agentId: byId('') },
			credentials,
		});

		expect(error?.name).toBe('WorkflowHasIssuesError');
		expect(error?.message).toContain("The 'Agent Platform' node has issues");
		expect(run.status).toBe('error');
		expect(outputs).toEqual([]);
		expect(server.seen).toHaveLength(0);
	});

	it('a cancel aborts a slow request through the execution cancel signal', async () => {
		// cancelled once the server has the request (a fixed 300 ms was crossed on a loaded machine:
		// the request had not arrived yet), which it never answers
		let arrived!: () => void;
		const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
		server.handler = () => arrived();

		const { error, cancelled } = await runNode({
			parameters: getAgent,
			credentials,
			cancelWhen: requestArrived,
		});

		expect(cancelled).toBe(true);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error?.message).toBe('The execution was canceled');
		expect(server.seen).toHaveLength(1);
		// The aborted request closes its socket: the server sees the client go away.
		for (let waited = 0; !server.seen[0].abandoned && waited < 2000; waited += 20) {
			await new Promise((resolve) => setTimeout(resolve, 20));
		}
		expect(server.seen[0].abandoned).toBe(true);
	});

	it('runs listSearch with a real load-options context', async () => {
		server.handler = (seen, res) =>
			json(res, 200, { data: [agent(7)], current_page: 1, last_page: 2, per_page: 50, total: 51 });

		const result = await listSearch('searchAgents', {
			parameters: getAgent,
			credentials,
			filter: 'seven',
		});

		expect(result.results).toEqual([
			{ name: 'Agent 7 (chat) — The agent 7', value: '7', description: 'The agent 7' },
		]);
		expect(result.paginationToken).toBe('2');
		expect(server.seen[0].url).toContain('q=seven');
		expect(server.seen[0].headers.authorization).toBe('Bearer test-key-123');
	});

	it("exposes binary input stored in n8n's binary store, and streaming via sendChunk", async () => {
		// A probe node: reads the binary back through n8n's helpers and sends chunks.
		const chunks: Array<{ type: string; content?: string }> = [];
		const { outputs, error } = await runNode({
			parameters: {},
			credentials,
			items: [
				binaryItem(Buffer.from('hello binary'), { fileName: 'a.txt', mimeType: 'text/plain' }),
			],
			streaming: { onChunk: (chunk) => chunks.push(chunk) },
			nodeType: probeNodeType(async function () {
				const item = this.getInputData()[0];
				const buffer = await this.helpers.getBinaryDataBuffer(0, 'data');
				const stream = await this.helpers.getBinaryStream(item.binary!.data.id!);
				let streamed = '';
				for await (const part of stream) streamed += String(part);
				const metadata = await this.helpers.getBinaryMetadata(item.binary!.data.id!);
				const streaming = this.isStreaming();
				if (streaming) {
					await this.sendChunk('begin', 0);
					await this.sendChunk('item', 0, 'hi');
					await this.sendChunk('end', 0);
				}
				return [
					[
						{
							json: {
								buffer: buffer.toString(),
								streamed,
								fileName: metadata.fileName ?? null,
								id: item.binary!.data.id!,
								streaming,
							},
							pairedItem: { item: 0 },
						},
					],
				];
			}),
		});

		expect(error).toBeUndefined();
		expect(outputs[0][0].json).toMatchObject({
			buffer: 'hello binary',
			streamed: 'hello binary',
			fileName: 'a.txt',
			streaming: true,
		});
		expect(String(outputs[0][0].json.id)).toMatch(/^filesystem/);
		expect(chunks.map((c) => c.type)).toEqual(['begin', 'item', 'end']);
		expect(chunks[1].content).toBe('hi');
	});

	it('without the streaming option, isStreaming() is false', async () => {
		const { outputs } = await runNode({
			parameters: {},
			credentials,
			nodeType: probeNodeType(async function () {
				return [[{ json: { streaming: this.isStreaming() }, pairedItem: { item: 0 } }]];
			}),
		});

		expect(outputs[0][0].json.streaming).toBe(false);
	});
});

describe('n8n in-process harness against the platform emulator', () => {
	it('gets agent 3 and lists agents, with the emulator recording the credential headers', async () => {
		const emu = await startEmulator();
		try {
			const credentials = credentialsFor(emu);
			const get = await runNode({
				parameters: { resource: 'agent', operation: 'get', agentId: byId('3') },
				credentials,
			});
			expect(get.error).toBeUndefined();
			expect(get.outputs[0]).toHaveLength(1);
			expect(get.outputs[0][0].json.id).toBe(3);
			expect(get.outputs[0][0].pairedItem).toEqual({ item: 0 });

			const search = await listSearch('searchAgents', { parameters: {}, credentials });
			expect(search.results.length).toBeGreaterThan(0);

			expect(emu.requests.length).toBeGreaterThanOrEqual(2);
			for (const request of emu.requests) {
				expect(request.headers.authorization).toBe(`Bearer ${emu.apiKey}`);
				expect(request.headers['x-workspace-id']).toBe(String(emu.workspaceId));
			}
		} finally {
			await emu.stop();
		}
	});
});
