/**
 * File and Agent File operations against the emulator, through n8n's real execution machinery
 * (test/infra/n8n.ts): the streamed upload (compared byte for byte with the `form-data`
 * package's encoding), processing and waiting for it, paging, the file picker, linking files
 * to agents, and every check that must refuse a file before anything is sent.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Container } from '@n8n/di';
import NodeFormData from 'form-data';
import { BinaryDataService } from 'n8n-core';
import type { IBinaryData, IDataObject, INode, INodeParameters } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import {
	checkUploadable,
	MAX_UPLOAD_BYTES,
	SUPPORTED_EXTENSIONS,
} from '../../../nodes/AgentPlatform/helpers/files/binary';
import type { PlatformEmulator, RecordedMultipart, RecordedRequest } from '../../../dev/emulator';
import { ALLOWED_EXTENSIONS, startEmulator } from '../../../dev/emulator';
import { binaryItem, byId, credentialsFor, listSearch, runNode } from '../../infra/n8n';
import { seedFiles } from '../../infra/seedFiles';
import { useEmulator } from '../../infra/useEmulator';

let emu: PlatformEmulator;
const CHAT_AGENT = 1;

// 100 virtual seconds per real second: processing a file (2 virtual seconds) takes 20 ms.

useEmulator({ timeScale: 100, maxStoredFiles: 1000, quiet: true }, (started) => (emu = started));
beforeEach(() => {
	emu.state.files.clear();
	for (const agent of emu.state.agents.values()) agent.fileIds = [];
});

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const posts = (path = '/files') =>
	emu.requests.filter((r) => r.method === 'POST' && r.path === path);
const multipart = (r: RecordedRequest) => r.body as RecordedMultipart;

function upload(extra: INodeParameters = {}): INodeParameters {
	return { resource: 'file', operation: 'upload', binaryPropertyName: 'data', ...extra };
}

/** Uploads one small file through the node; resolves the File record it output. */
async function uploadThroughNode(
	name = 'notes.txt',
	content = Buffer.from(`content of ${name}\n`),
): Promise<IDataObject> {
	const { outputs, error } = await runNode({
		parameters: upload(),
		credentials: credentialsFor(emu),
		items: [binaryItem(content, { fileName: name, mimeType: 'text/plain' })],
	});
	expect(error).toBeUndefined();
	return outputs[0][0].json;
}

describe('File → Upload', () => {
	it('streams the binary as multipart with an exact Content-Length and returns the File', async () => {
		const content = randomBytes(3 * 1024 * 1024 + 17);
		const { outputs, error } = await runNode({
			parameters: upload(),
			credentials: credentialsFor(emu),
			items: [
				binaryItem(content, {
					fileName: 'report.pdf',
					mimeType: 'application/pdf',
					json: { n: 1 },
				}),
			],
		});

		expect(error).toBeUndefined();
		expect(outputs[0]).toHaveLength(1);
		const file = outputs[0][0].json;
		expect(outputs[0][0].pairedItem).toEqual({ item: 0 });
		expect(file).toMatchObject({
			object: 'file',
			filename: 'report.pdf',
			bytes: content.length,
			status: 'waiting',
			credits: 0,
		});
		expect(emu.state.files.get(Number(file.id))!.sha256).toBe(sha256(content));

		expect(posts()).toHaveLength(1);
		const [request] = posts();
		expect(request.status).toBe(200);
		expect(request.headers['content-type']).toMatch(
			/^multipart\/form-data; boundary=axios-[\d.]+-boundary-/,
		);
		expect(request.headers['transfer-encoding']).toBeUndefined();
		// Exact length: the file plus a few hundred bytes of part headers and boundaries.
		const length = Number(request.headers['content-length']);
		expect(length - content.length).toBeGreaterThan(100);
		expect(length - content.length).toBeLessThan(600);
		expect(multipart(request)).toEqual({
			fields: {},
			files: [
				{
					field: 'file',
					filename: 'report.pdf',
					mimeType: 'application/pdf',
					bytes: content.length,
					sha256: sha256(content),
				},
			],
		});
	});

	it('sends the same fields, file name and bytes as the form-data package does for the same file', async () => {
		const content = randomBytes(2 * 1024 * 1024 + 5);
		const name = 'Résumé 2024 – draft.docx';
		const mimeType = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
		const { error } = await runNode({
			parameters: upload({ process: 'start' }),
			credentials: credentialsFor(emu),
			items: [binaryItem(content, { fileName: name, mimeType })],
		});
		expect(error).toBeUndefined();

		// The reference: the form-data package, the usual encoder of Node clients.
		const reference = new NodeFormData();
		reference.append('process', '1');
		reference.append('file', content, { filename: name, contentType: mimeType });
		const answer = await fetch(`${emu.url}/files`, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${emu.apiKey}`,
				'x-workspace-id': emu.workspaceId,
				...reference.getHeaders(),
			},
			body: reference.getBuffer(),
		});
		expect(answer.status).toBe(200);

		const [fromNode, fromFormData] = posts().map(multipart);
		expect(fromNode).toEqual(fromFormData);
		expect(fromNode).toEqual({
			fields: { process: '1' },
			files: [
				{ field: 'file', filename: name, mimeType, bytes: content.length, sha256: sha256(content) },
			],
		});
	});

	it('Wait Until Processed polls the file until it is completed', async () => {
		const { outputs, error } = await runNode({
			parameters: upload({ process: 'wait', timeout: 1 }),
			credentials: credentialsFor(emu),
			items: [
				binaryItem(Buffer.from('a,b\n1,2\n'), { fileName: 'table.csv', mimeType: 'text/csv' }),
			],
		});

		expect(error).toBeUndefined();
		const file = outputs[0][0].json;
		expect(file.status).toBe('completed');
		expect(Number(file.credits)).toBeGreaterThan(0);
		expect(multipart(posts()[0]).fields).toEqual({ process: '1' });
		const polls = emu.requests.filter((r) => r.method === 'GET' && r.path === `/files/${file.id}`);
		expect(polls.length).toBeGreaterThanOrEqual(1);
		expect(polls.length).toBeLessThanOrEqual(3);
	});

	it('Process returns at once with the file still waiting', async () => {
		const { outputs, error } = await runNode({
			parameters: upload({ process: 'start' }),
			credentials: credentialsFor(emu),
			items: [
				binaryItem(Buffer.from('# Title\n'), { fileName: 'readme.md', mimeType: 'text/markdown' }),
			],
		});
		expect(error).toBeUndefined();
		expect(outputs[0][0].json).toMatchObject({ status: 'waiting', credits: 0 });
		expect(emu.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /files']);
	});

	it("the File Name and MIME Type options replace the binary's own", async () => {
		const content = Buffer.from('x;y\n');
		const { outputs, error } = await runNode({
			parameters: upload({ options: { fileName: 'export.csv', mimeType: 'text/csv' } }),
			credentials: credentialsFor(emu),
			items: [
				binaryItem(content, { fileName: 'download.bin', mimeType: 'application/octet-stream' }),
			],
		});
		expect(error).toBeUndefined();
		expect(outputs[0][0].json.filename).toBe('export.csv');
		expect(multipart(posts()[0]).files[0]).toMatchObject({
			filename: 'export.csv',
			mimeType: 'text/csv',
			bytes: content.length,
		});
	});

	it("uploads each item's own binary, from another binary property", async () => {
		const items = ['one.txt', 'two.json', 'three.py'].map((name) =>
			binaryItem(Buffer.from(`body of ${name}`), {
				fileName: name,
				mimeType: 'text/plain',
				property: 'attachment',
			}),
		);
		const { outputs, error } = await runNode({
			parameters: upload({ binaryPropertyName: 'attachment' }),
			credentials: credentialsFor(emu),
			items,
		});
		expect(error).toBeUndefined();
		expect(outputs[0].map((i) => i.json.filename)).toEqual(['one.txt', 'two.json', 'three.py']);
		expect(outputs[0].map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(posts().map((r) => multipart(r).files[0].sha256)).toEqual(
			['one.txt', 'two.json', 'three.py'].map((name) => sha256(Buffer.from(`body of ${name}`))),
		);
	});

	it("a 429 is retried after the platform's wait, and the retry sends the whole file again", async () => {
		// The latency lets the whole body arrive before the answer, as it does at a PHP platform behind
		// a buffering proxy. (An answer that closes the connection mid-body reaches n8n's client,
		// which sends Connection: close, as EPIPE instead: see the report on the transport.)
		emu.setFaults({ rateLimitPerSecond: 1, retryAfterSeconds: 1, latencyMs: 300 });
		const first = Buffer.from('first file\n');
		const second = randomBytes(1024 * 1024);
		const { outputs, error } = await runNode({
			parameters: upload(),
			credentials: credentialsFor(emu),
			items: [
				binaryItem(first, { fileName: 'first.txt', mimeType: 'text/plain' }),
				binaryItem(second, { fileName: 'second.mp3', mimeType: 'audio/mpeg' }),
			],
		});

		expect(error).toBeUndefined();
		expect(outputs[0].map((i) => i.json.filename)).toEqual(['first.txt', 'second.mp3']);
		expect(posts().map((r) => r.status)).toEqual([200, 429, 200]);
		const retried = multipart(posts()[2]).files[0];
		expect(retried).toMatchObject({
			filename: 'second.mp3',
			bytes: second.length,
			sha256: sha256(second),
		});
		expect(posts()[2].at - posts()[1].at).toBeGreaterThanOrEqual(900);
	});

	it('a 429 that arrives while the file is still being sent (the connection breaks) is retried too', async () => {
		// No latency: the platform answers at once and closes, n8n's client sees the pipe break
		// mid-body. A multipart body cut short cannot have been stored, so sending again is safe.
		emu.setFaults({ rateLimitPerSecond: 1, retryAfterSeconds: 1 });
		const big = randomBytes(8 * 1024 * 1024);
		const { outputs, error } = await runNode({
			parameters: upload(),
			credentials: credentialsFor(emu),
			items: [
				binaryItem(Buffer.from('warm-up\n'), { fileName: 'warm.txt', mimeType: 'text/plain' }),
				binaryItem(big, { fileName: 'big.mp3', mimeType: 'audio/mpeg' }),
			],
		});
		expect(error).toBeUndefined();
		expect(outputs[0].map((i) => i.json.filename)).toEqual(['warm.txt', 'big.mp3']);
		const stored = posts()
			.filter((r) => r.status === 200)
			.map((r) => multipart(r).files[0]);
		expect(stored[1]).toMatchObject({
			filename: 'big.mp3',
			bytes: big.length,
			sha256: sha256(big),
		});
		expect(emu.state.files.size).toBeGreaterThanOrEqual(2);
	});

	it('a 5xx answer to an upload is not retried (it may have stored the file)', async () => {
		emu.setFaults({ serverErrorRate: 1, serverErrorStatus: 503 });
		const { error } = await runNode({
			parameters: upload(),
			credentials: credentialsFor(emu),
			items: [binaryItem(Buffer.from('hello'), { fileName: 'hello.txt', mimeType: 'text/plain' })],
		});
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error!.message).toBe('The platform had a problem on its side (HTTP 503)');
		expect(posts()).toHaveLength(1);
	});
});

describe('File → Upload: files refused before anything is sent', () => {
	it('an unsupported extension names the file, the property and the item', async () => {
		const { error, outputs } = await runNode({
			parameters: upload(),
			credentials: credentialsFor(emu),
			items: [
				binaryItem(Buffer.from('fine'), { fileName: 'fine.txt', mimeType: 'text/plain' }),
				binaryItem(Buffer.from('MZ'), {
					fileName: 'setup.exe',
					mimeType: 'application/x-msdownload',
				}),
			],
		});
		expect(outputs).toEqual([]);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error!.message).toBe(
			'The platform does not accept .exe files: "setup.exe" cannot be uploaded (binary property "data", item 2)',
		);
		expect((error as NodeOperationError).description).toContain('txt, doc, docx, csv, pdf');
		// the first item went out; the refused one never did
		expect(posts().map((r) => multipart(r).files[0].filename)).toEqual(['fine.txt']);
	});

	it('a file name without extension is refused, pointing at the File Name option', async () => {
		const { error } = await runNode({
			parameters: upload(),
			credentials: credentialsFor(emu),
			items: [
				binaryItem(Buffer.from('#!/bin/sh'), { fileName: 'Makefile', mimeType: 'text/plain' }),
			],
		});
		expect(error!.message).toBe(
			'The file name "Makefile" has no extension, so the platform would refuse it (binary property "data", item 1)',
		);
		expect((error as NodeOperationError).description).toContain('File Name');
		expect(emu.requests).toEqual([]);
	});

	it('a missing binary property lists the ones the item has', async () => {
		const { error } = await runNode({
			parameters: upload({ binaryPropertyName: 'file' }),
			credentials: credentialsFor(emu),
			items: [binaryItem(Buffer.from('x'), { fileName: 'x.txt', property: 'attachment_0' })],
		});
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error!.message).toBe('The item has no binary property "file" (item 1)');
		expect((error as NodeOperationError).description).toContain('attachment_0');
		expect(emu.requests).toEqual([]);
	});

	it("a binary larger than 200 MB in n8n's binary store is refused from its stored size", async () => {
		// A sparse 200 MB + 1 byte file, stored by n8n's own binary data service (filesystem mode).
		await listSearch('searchFiles', { parameters: {}, credentials: credentialsFor(emu) }); // the harness sets n8n up on first use
		emu.clearRequests();
		const folder = mkdtempSync(path.join(tmpdir(), 'oversize-'));
		try {
			const source = path.join(folder, 'huge.mp4');
			writeFileSync(source, '');
			truncateSync(source, MAX_UPLOAD_BYTES + 1);
			const binary = await Container.get(BinaryDataService).copyBinaryFile(
				{ type: 'execution', workflowId: 'harness-workflow', executionId: 'oversize' },
				{ data: '', mimeType: 'video/mp4', fileName: 'huge.mp4' } as IBinaryData,
				source,
			);
			expect(binary.id).toBeTruthy();

			const { error } = await runNode({
				parameters: upload(),
				credentials: credentialsFor(emu),
				items: [{ json: {}, binary: { data: binary } }],
			});
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error!.message).toBe(
				'The file "huge.mp4" is 200.1 MB: the platform accepts at most 200 MB per file (binary property "data", item 1)',
			);
			expect(emu.requests).toEqual([]);
		} finally {
			rmSync(folder, { recursive: true, force: true });
		}
	}, 30_000);

	it("checkUploadable: exactly 200 MB passes, one byte more does not; the list is the spec's", () => {
		const node = { name: 'Agent Platform' } as INode;
		const facts = { fileName: 'movie.MP4', binaryPropertyName: 'data', itemIndex: 0 };
		expect(() => checkUploadable(node, { ...facts, size: MAX_UPLOAD_BYTES })).not.toThrow();
		expect(() => checkUploadable(node, { ...facts, size: MAX_UPLOAD_BYTES + 1 })).toThrow(
			/is 200\.1 MB: the platform accepts at most 200 MB per file \(binary property "data", item 1\)/,
		);
		expect(() => checkUploadable(node, { ...facts, fileName: 'archive.zip', size: 1 })).toThrow(
			/does not accept \.zip files/,
		);
		expect([...SUPPORTED_EXTENSIONS].sort()).toEqual([...ALLOWED_EXTENSIONS].sort());
	});

	it("the 31st file: the platform's storage limit is explained in its own words, sent once", async () => {
		const small = await startEmulator({ timeScale: 100, quiet: true }); // the platform's own limit: 30 files
		try {
			const { error } = await runNode({
				parameters: upload(),
				credentials: credentialsFor(small),
				items: Array.from({ length: 31 }, (_, i) =>
					binaryItem(Buffer.from(`file ${i}`), {
						fileName: `file-${i}.txt`,
						mimeType: 'text/plain',
					}),
				),
			});
			expect(small.state.files.size).toBe(30);
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error!.message).toBe(
				'The platform refused the request: File storage limit reached: at most 30 files can be stored. Delete files to upload more.',
			);
			expect((error as NodeApiError).context.itemIndex).toBe(30);
			expect((error as NodeApiError).httpCode).toBe('422');
			expect(small.requests.filter((r) => r.method === 'POST')).toHaveLength(31);
		} finally {
			await small.stop();
		}
	});
});

describe('File → Get, Get Many, Delete, Process', () => {
	it('Get returns the file; an unknown ID is a plain-words 404', async () => {
		const uploaded = await uploadThroughNode('get-me.txt');
		let run = await runNode({
			parameters: { resource: 'file', operation: 'get', fileId: byId(String(uploaded.id)) },
			credentials: credentialsFor(emu),
		});
		expect(run.error).toBeUndefined();
		expect(run.outputs[0][0].json).toEqual(uploaded);

		run = await runNode({
			parameters: { resource: 'file', operation: 'get', fileId: byId(424242) },
			credentials: credentialsFor(emu),
		});
		expect(run.error).toBeInstanceOf(NodeApiError);
		expect(run.error!.message).toBe('The platform could not find file 424242');
	});

	it('Get Many with Return All follows every page at per_page 100 and stops at the short page', async () => {
		const ids = seedFiles(emu, 250);
		const { outputs, error } = await runNode({
			parameters: { resource: 'file', operation: 'getAll', returnAll: true },
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		expect(outputs[0].map((i) => i.json.id)).toEqual([...ids].reverse()); // newest first
		expect(emu.requests.map((r) => [r.path, r.query.page, r.query.per_page])).toEqual([
			['/files', '1', '100'],
			['/files', '2', '100'],
			['/files', '3', '100'],
		]);
	});

	it('Get Many with a Limit asks for no more than needed, oldest first when ordered asc', async () => {
		const ids = seedFiles(emu, 130);
		let run = await runNode({
			parameters: {
				resource: 'file',
				operation: 'getAll',
				returnAll: false,
				limit: 7,
				options: { order: 'asc' },
			},
			credentials: credentialsFor(emu),
		});
		expect(run.outputs[0].map((i) => i.json.id)).toEqual(ids.slice(0, 7));
		expect(emu.requests.map((r) => r.query)).toEqual([{ order: 'asc', page: '1', per_page: '7' }]);

		emu.clearRequests();
		run = await runNode({
			parameters: { resource: 'file', operation: 'getAll', returnAll: false, limit: 120 },
			credentials: credentialsFor(emu),
		});
		expect(run.outputs[0].map((i) => i.json.id)).toEqual([...ids].reverse().slice(0, 120));
		expect(emu.requests.map((r) => [r.query.page, r.query.per_page])).toEqual([
			['1', '100'],
			['2', '100'],
		]);
	});

	it('Delete removes the file; deleting it again is a plain-words 404', async () => {
		const uploaded = await uploadThroughNode('delete-me.txt');
		const parameters = { resource: 'file', operation: 'delete', fileId: byId(String(uploaded.id)) };
		let run = await runNode({ parameters, credentials: credentialsFor(emu) });
		expect(run.error).toBeUndefined();
		expect(run.outputs[0][0].json).toMatchObject({ id: uploaded.id, deleted: true });
		expect(emu.state.files.has(Number(uploaded.id))).toBe(false);
		expect(emu.requests.at(-1)).toMatchObject({
			method: 'DELETE',
			path: `/files/${uploaded.id}`,
			status: 200,
		});

		run = await runNode({ parameters, credentials: credentialsFor(emu) });
		expect(run.error!.message).toBe(`The platform could not find file ${uploaded.id}`);
	});

	it('Process starts processing; with Wait Until Processed it returns the completed file', async () => {
		const uploaded = await uploadThroughNode('process-me.txt');
		emu.clearRequests();
		let run = await runNode({
			parameters: { resource: 'file', operation: 'process', fileId: byId(String(uploaded.id)) },
			credentials: credentialsFor(emu),
		});
		expect(run.outputs[0][0].json).toMatchObject({ id: uploaded.id, status: 'waiting' });
		expect(emu.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
			`POST /files/${uploaded.id}/process`,
		]);

		run = await runNode({
			parameters: {
				resource: 'file',
				operation: 'process',
				fileId: byId(String(uploaded.id)),
				waitUntilProcessed: true,
			},
			credentials: credentialsFor(emu),
		});
		expect(run.error).toBeUndefined();
		expect(run.outputs[0][0].json).toMatchObject({ id: uploaded.id, status: 'completed' });
	});

	it('a file ID that is not a number is refused before any request', async () => {
		const { error } = await runNode({
			parameters: {
				resource: 'file',
				operation: 'delete',
				fileId: { __rl: true, mode: 'list', value: 'report.pdf' },
			},
			credentials: credentialsFor(emu),
		});
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error!.message).toBe('The file "report.pdf" is not a valid ID (item 1)');
		expect(emu.requests).toEqual([]);
	});
});

describe('File processing that outlasts the timeout', () => {
	it('gives up after the Timeout with the file ID, and the file stays uploaded', async () => {
		const slow = await startEmulator({ timeScale: 1, fileProcessingSeconds: 3600, quiet: true });
		try {
			const started = Date.now();
			const { error } = await runNode({
				parameters: upload({ process: 'wait', timeout: 0.025 }), // 1.5 s
				credentials: credentialsFor(slow),
				items: [binaryItem(Buffer.from('slow'), { fileName: 'slow.txt', mimeType: 'text/plain' })],
			});
			const [file] = [...slow.state.files.values()];
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error!.message).toBe(
				`The file ${file.id} was not processed within 2 seconds (item 1)`,
			);
			expect(Date.now() - started).toBeLessThan(5000);
			expect(file.status).toBe('waiting');
		} finally {
			await slow.stop();
		}
	});
});

describe('File picker (searchFiles)', () => {
	it('lists files newest first, filters by name or ID, and pages by 100', async () => {
		const ids = seedFiles(emu, 120);
		const first = await listSearch('searchFiles', {
			parameters: {},
			credentials: credentialsFor(emu),
		});
		expect(first.results).toHaveLength(100);
		expect(first.results[0]).toMatchObject({
			name: `seeded-119.txt (${ids[119]})`,
			value: String(ids[119]),
		});
		expect(first.paginationToken).toBe('2');
		const second = await listSearch('searchFiles', {
			parameters: {},
			credentials: credentialsFor(emu),
			paginationToken: first.paginationToken,
		});
		expect(second.results.map((r) => r.value)).toEqual(ids.slice(0, 20).reverse().map(String));
		expect(second.paginationToken).toBeUndefined();

		const byName = await listSearch('searchFiles', {
			parameters: {},
			credentials: credentialsFor(emu),
			filter: 'SEEDED-11',
		});
		expect(byName.results.map((r) => r.value)).toEqual(ids.slice(110, 120).reverse().map(String));
		const byId = await listSearch('searchFiles', {
			parameters: {},
			credentials: credentialsFor(emu),
			filter: String(ids[105]),
		});
		expect(byId.results.map((r) => r.value)).toEqual([String(ids[105])]);
	});
});

describe('Agent File → Link, List, Unlink', () => {
	it('links several files, lists them one item each, unlinks one', async () => {
		const a = await uploadThroughNode('a.txt');
		const b = await uploadThroughNode('b.md');
		const agentId = byId(CHAT_AGENT);

		let run = await runNode({
			parameters: {
				resource: 'agentFile',
				operation: 'link',
				agentId,
				files: {
					values: [
						{ fileId: byId(String(a.id)) },
						{ fileId: { __rl: true, mode: 'list', value: String(b.id) } },
						{ fileId: byId(String(a.id)) },
					],
				},
			},
			credentials: credentialsFor(emu),
		});
		expect(run.error).toBeUndefined();
		expect(run.outputs[0]).toHaveLength(1);
		expect(run.outputs[0][0].json).toMatchObject({
			id: CHAT_AGENT,
			status: 'completed',
			files_count: { total: 2, completed: 0, failed: 0, in_progress: 2 },
		});
		expect(posts(`/agents/${CHAT_AGENT}/files`)[0].body).toEqual({ file_ids: [a.id, b.id] });

		run = await runNode({
			parameters: { resource: 'agentFile', operation: 'getAll', agentId },
			credentials: credentialsFor(emu),
		});
		expect(run.outputs[0].map((i) => [i.json.id, i.json.filename, i.json.agent_id])).toEqual([
			[a.id, 'a.txt', CHAT_AGENT],
			[b.id, 'b.md', CHAT_AGENT],
		]);

		run = await runNode({
			parameters: {
				resource: 'agentFile',
				operation: 'unlink',
				agentId,
				fileId: byId(String(a.id)),
			},
			credentials: credentialsFor(emu),
		});
		expect(run.outputs[0][0].json).toMatchObject({
			id: CHAT_AGENT,
			removed: true,
			file: { id: a.id },
		});
		expect(emu.state.agents.get(CHAT_AGENT)!.fileIds).toEqual([b.id]);
		expect(emu.state.files.has(Number(a.id))).toBe(true); // unlinking keeps the file

		run = await runNode({
			parameters: {
				resource: 'agentFile',
				operation: 'unlink',
				agentId,
				fileId: byId(String(a.id)),
			},
			credentials: credentialsFor(emu),
		});
		expect(run.error!.message).toBe(
			`The platform could not find file ${a.id} among the files of agent ${CHAT_AGENT}`,
		);
	});

	it('List of an agent without files outputs no item', async () => {
		const run = await runNode({
			parameters: { resource: 'agentFile', operation: 'getAll', agentId: byId(CHAT_AGENT) },
			credentials: credentialsFor(emu),
		});
		expect(run.error).toBeUndefined();
		expect(run.outputs[0] ?? []).toEqual([]);
	});

	it("A node saved with Get Many's old value `list` (version 1) runs as Get Many: the same request, the same items", async () => {
		const ids = seedFiles(emu, 3);
		emu.state.agents.get(CHAT_AGENT)!.fileIds = [ids[0], ids[2]];
		const runAs = async (operation: string) => {
			emu.clearRequests();
			const run = await runNode({
				parameters: { resource: 'agentFile', operation, agentId: byId(CHAT_AGENT) },
				credentials: credentialsFor(emu),
				typeVersion: 1,
			});
			expect(run.error).toBeUndefined();
			return {
				items: run.outputs[0].map((item) => item.json),
				requests: emu.requests.map((r) => `${r.method} ${r.path}`),
			};
		};
		const getAll = await runAs('getAll');
		expect(getAll.items.map((file) => [file.id, file.agent_id])).toEqual([
			[ids[0], CHAT_AGENT],
			[ids[2], CHAT_AGENT],
		]);
		expect(getAll.requests).toEqual([`GET /agents/${CHAT_AGENT}/files`]);
		expect(await runAs('list')).toEqual(getAll);
	});

	it("Link refuses a file ID that is not a number before any request; an unknown file is the platform's 422", async () => {
		let run = await runNode({
			parameters: {
				resource: 'agentFile',
				operation: 'link',
				agentId: byId(CHAT_AGENT),
				files: {
					values: [
						{ fileId: byId('12') },
						{ fileId: { __rl: true, mode: 'list', value: 'notes.txt' } },
					],
				},
			},
			credentials: credentialsFor(emu),
		});
		expect(run.error).toBeInstanceOf(NodeOperationError);
		expect(run.error!.message).toBe('The file number 2 "notes.txt" is not a valid ID (item 1)');
		expect(emu.requests).toEqual([]);

		run = await runNode({
			parameters: {
				resource: 'agentFile',
				operation: 'link',
				agentId: byId(CHAT_AGENT),
				files: { values: [] },
			},
			credentials: credentialsFor(emu),
		});
		expect(run.error!.message).toBe('No file to link: add at least one file (item 1)');
		expect(emu.requests).toEqual([]);

		run = await runNode({
			parameters: {
				resource: 'agentFile',
				operation: 'link',
				agentId: byId(CHAT_AGENT),
				files: { values: [{ fileId: byId(424242) }] },
			},
			credentials: credentialsFor(emu),
		});
		expect(run.error).toBeInstanceOf(NodeApiError);
		expect(run.error!.message).toBe(
			'The platform refused the request: The selected file_ids.0 is invalid.',
		);
	});
});
