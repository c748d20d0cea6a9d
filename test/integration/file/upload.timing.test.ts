/**
 * File and Agent File operations against the emulator, through n8n's real execution machinery
 * (test/infra/n8n/): the streamed upload (compared byte for byte with the `form-data`
 * package's encoding), processing and waiting for it, paging, the file picker, linking files
 * to agents, and every check that must refuse a file before anything is sent.
 *
 * This file: File → Upload.
 */
import { randomBytes } from 'node:crypto';
import NodeFormData from 'form-data';
import { NodeApiError } from 'n8n-workflow';
import { credentialsFor } from '../../infra/n8n/credentials';
import { binaryItem, runNode } from '../../infra/n8n/runNode';
import { emu, multipart, posts, sha256, upload } from './file.shared';

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
