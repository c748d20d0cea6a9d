/**
 * The streamed multipart body (transport/multipart.ts) sent through the transport's one request
 * function inside n8n's real request helpers, against the emulator: a retried upload opens its
 * source again and sends it whole, an unfinished source is closed, and a source that does not
 * hold the bytes it declared fails at once instead of leaving the platform waiting.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';

import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { MultipartForm, StreamedFile } from '../../../nodes/AgentPlatform/transport/multipart';
import { apiRequest } from '../../../nodes/AgentPlatform/transport/request';
import type { PlatformEmulator, RecordedMultipart } from '../../../dev/emulator';
import { credentialsFor } from '../../infra/n8n/credentials';
import { probeNodeType } from '../../infra/n8n/loadOptions';
import { runNode } from '../../infra/n8n/runNode';
import { useEmulator } from '../../infra/useEmulator';

let emu: PlatformEmulator;
useEmulator({ quiet: true }, (started) => (emu = started));
beforeEach(() => emu.state.files.clear());

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** A node of the test's own that runs `body` with n8n's real execute context and the credential. */
const probe = (body: (ctx: IExecuteFunctions) => Promise<IDataObject>) =>
	probeNodeType(
		async function () {
			return [[{ json: await body(this), pairedItem: { item: 0 } }]];
		},
		[{ name: 'agentPlatformApi', required: true }],
	);

/** A source that hands out `content` in 64 KiB pieces, remembering every stream it opened. */
function trackedSource(content: Buffer, opened: Readable[]) {
	return async () => {
		const pieces = Array.from({ length: Math.ceil(content.length / 65536) }, (_, i) =>
			content.subarray(i * 65536, (i + 1) * 65536),
		);
		const stream = Readable.from(pieces);
		opened.push(stream);
		return stream;
	};
}

const upload = (ctx: IExecuteFunctions, form: MultipartForm) =>
	apiRequest(ctx, {
		method: 'POST',
		path: '/files',
		body: form,
		itemIndex: 0,
	}) as Promise<IDataObject>;

it('a 429 makes the upload open its source again and send it whole; no source stays open', async () => {
	const content = randomBytes(8 * 1024 * 1024);
	const opened: Readable[] = [];
	const file = new StreamedFile({
		name: 'retried.txt',
		type: 'text/plain',
		size: content.length,
		open: trackedSource(content, opened),
	});
	// the latency lets the whole body arrive before the 429, as at a platform that reads it first.
	// One request in 5 s: the upload is refused however long a busy machine takes to send it after
	// the GET (at one a second, a send that took a second got through), then let through after the
	// wait the 429 names.
	emu.setFaults({ rateLimitPerSecond: 0.2, rateLimitBurst: 1, latencyMs: 300 });

	const { outputs, error } = await runNode({
		parameters: {},
		credentials: credentialsFor(emu),
		nodeType: probe(async (ctx) => {
			await apiRequest(ctx, { method: 'GET', path: '/files' }); // takes the bucket's only token
			const form = new MultipartForm();
			form.append('file', file);
			try {
				return await upload(ctx, form);
			} finally {
				form.release();
			}
		}),
	});

	expect(error).toBeUndefined();
	expect(outputs[0][0].json).toMatchObject({ filename: 'retried.txt', bytes: content.length });
	expect(emu.requests.map((r) => `${r.method} ${r.status}`)).toEqual([
		'GET 200',
		'POST 429',
		'POST 200',
	]);
	expect((emu.requests[2].body as RecordedMultipart).files[0]).toMatchObject({
		bytes: content.length,
		sha256: sha256(content),
	});
	expect(file.opened).toBe(2);
	expect(opened).toHaveLength(2);
	expect(opened.every((stream) => stream.destroyed)).toBe(true);
});

it('a source shorter than its declared size fails the upload at once, and nothing is stored', async () => {
	const started = Date.now();
	const { error } = await runNode({
		parameters: {},
		credentials: credentialsFor(emu),
		nodeType: probe(async (ctx) => {
			const form = new MultipartForm();
			// The 10 bytes come once the request has reached the platform (the part's head went first),
			// so that the body fails on a request the platform has seen: a fixed 300 ms was not always
			// enough beside a busy neighbour.
			const late = async function* () {
				await emu.waitFor(() => emu.requests.some((r) => r.method === 'POST'), 10_000);
				yield Buffer.alloc(10);
			};
			form.append(
				'file',
				new StreamedFile({
					name: 'short.txt',
					type: 'text/plain',
					size: 1000,
					open: async () => late(),
				}),
			);
			return await upload(ctx, form);
		}),
	});

	expect(error).toBeInstanceOf(NodeApiError);
	expect(error!.message).toBe('The connection to the platform broke before it answered');
	expect((error as NodeApiError).description).toContain(
		'"short.txt" ended after 10 of the 1000 bytes it declared',
	);
	expect(Date.now() - started).toBeLessThan(5000);
	expect(emu.state.files.size).toBe(0);
	expect(emu.requests.filter((r) => r.method === 'POST')).toHaveLength(1); // a POST that may have arrived is not retried
});

it('an abandoned earlier read, closed late, does not close the source a retry is reading', async () => {
	const content = randomBytes(4 * 65536);
	const opened: Readable[] = [];
	const file = new StreamedFile({
		name: 'a.txt',
		type: 'text/plain',
		size: content.length,
		open: trackedSource(content, opened),
	});
	const first = file[Symbol.asyncIterator]();
	await first.next(); // the first attempt reads a chunk, then its request fails
	const second = file[Symbol.asyncIterator]();
	const chunks = [(await second.next()).value as Uint8Array];
	expect(opened[0].destroyed).toBe(true); // the retry closed the abandoned source
	await first.return(undefined); // the abandoned read is wound up late
	for (let next = await second.next(); !next.done; next = await second.next())
		chunks.push(next.value);
	expect(Buffer.concat(chunks).equals(content)).toBe(true);
	expect(opened[1].destroyed).toBe(true);
});

it('the body is what axios takes for a spec-compliant FormData, and a File for each file part', () => {
	const form = new MultipartForm();
	const file = new StreamedFile({
		name: 'a.txt',
		type: '',
		size: 1,
		open: async () => Buffer.from('a'),
	});
	form.append('process', '1');
	form.append('file', file);
	expect(Object.prototype.toString.call(form)).toBe('[object FormData]');
	expect(Object.prototype.toString.call(file)).toBe('[object File]');
	expect([...form]).toEqual([
		['process', '1'],
		['file', file],
	]);
	expect(file.type).toBe('application/octet-stream');
	// No `getHeaders`: n8n would otherwise take it for the form-data package and ask it for headers.
	expect('getHeaders' in form).toBe(false);
	// No `stream` or `arrayBuffer`: axios prefers those over the async iterator, and they would buffer.
	expect('stream' in file || 'arrayBuffer' in file).toBe(false);
});
