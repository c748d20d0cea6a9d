/**
 * Files the way production takes them (docs/platform-assumptions.md), against the emulator and
 * its storage host on a second port: up to 32 MiB one POST /files; above, sign → PUT of the raw
 * bytes to the signed URL (no Authorization, no workspace header) → register, with a fallback to
 * POST /files when the platform has no sign step; Execute's attachments processed before the run;
 * and what image and video agents produce, downloadable from the URLs in generated_files.
 */
import { createHash, randomBytes } from 'node:crypto';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { PlatformEmulator } from '../../../dev/emulator';
import { GENERATED_MP4, GENERATED_PNG, startEmulator } from '../../../dev/emulator';
import { byId, credentialsFor } from '../../infra/n8n/credentials';
import { binaryItem, runNode } from '../../infra/n8n/runNode';
import {
	IMAGE_AGENT as IMAGE,
	VIDEO_AGENT as VIDEO,
	CHAT_AGENT as CHAT,
} from '../../../dev/emulator';

const MiB = 1024 * 1024;

let emu: PlatformEmulator;
beforeAll(async () => {
	emu = await startEmulator({
		timeScale: 50,
		executionSeconds: 2,
		fileProcessingSeconds: 10,
		quiet: true,
	});
});
afterAll(async () => emu.stop());
beforeEach(() => {
	emu.resetFaults();
	emu.clearRequests();
	emu.state.files.clear();
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const upload = (process = 'no'): INodeParameters => ({
	resource: 'file',
	operation: 'upload',
	binaryPropertyName: 'data',
	process,
});
const paths = () => emu.requests.map((r) => `${r.method} ${r.path}`);

describe('File → Upload above 32 MiB: the signed-URL flow', () => {
	it('signs, PUTs the raw bytes with only the signed headers to the storage host, registers', async () => {
		const content = randomBytes(40 * MiB + 3);
		const { outputs, error } = await runNode({
			parameters: upload(),
			credentials: credentialsFor(emu),
			items: [binaryItem(content, { fileName: 'big.pdf', mimeType: 'application/pdf' })],
		});
		expect(error).toBeUndefined();
		const file = outputs[0][0].json;
		expect(file).toMatchObject({
			object: 'file',
			filename: 'big.pdf',
			bytes: content.length,
			status: 'waiting',
		});
		expect(paths()).toEqual(['POST /v2/files/sign', 'POST /v2/files/register']);
		expect(emu.requests[0].body).toEqual({
			filename: 'big.pdf',
			content_type: 'application/pdf',
			size: content.length,
		});
		expect(emu.requests[1].body).toMatchObject({
			filename: 'big.pdf',
			content_type: 'application/pdf',
			process: false,
		});

		const [put] = emu.storageRequests;
		expect(emu.storageRequests).toHaveLength(1);
		expect(put).toMatchObject({
			method: 'PUT',
			status: 200,
			bytes: content.length,
			sha256: sha256(content),
		});
		expect(put.headers.authorization).toBeUndefined();
		expect(put.headers['x-workspace-id']).toBeUndefined();
		expect(put.headers['content-type']).toBe('application/pdf');
		expect(Number(put.headers['content-length'])).toBe(content.length);
		expect(put.headers['transfer-encoding']).toBeUndefined();
		expect(JSON.stringify(put.headers)).not.toContain(emu.apiKey);
		expect(emu.state.files.get(Number(file.id))!.sha256).toBe(sha256(content));
		expect(new URL(emu.storageUrl).port).not.toBe(new URL(emu.url).port);
	});

	it("accepts the camelCase spelling of the sign step's answer", async () => {
		emu.setFaults({ signedUploadSpelling: 'camel' });
		const content = randomBytes(33 * MiB);
		const { outputs, error } = await runNode({
			parameters: upload(),
			credentials: credentialsFor(emu),
			items: [binaryItem(content, { fileName: 'clip.mp4', mimeType: 'video/mp4' })],
		});
		expect(error).toBeUndefined();
		expect(outputs[0][0].json.bytes).toBe(content.length);
		expect(emu.storageRequests[0].sha256).toBe(sha256(content));
	});

	it.each([404, 405] as const)(
		'falls back to POST /files when the sign step answers %s',
		async (status) => {
			const wide = await startEmulator({
				quiet: true,
				maxDirectUploadBytes: 200 * MiB,
				faults: { signedUploads: status },
			});
			try {
				const content = randomBytes(33 * MiB);
				const { outputs, error } = await runNode({
					parameters: upload(),
					credentials: credentialsFor(wide),
					items: [binaryItem(content, { fileName: 'big.csv', mimeType: 'text/csv' })],
				});
				expect(error).toBeUndefined();
				expect(wide.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
					`POST /v2/files/sign ${status}`,
					'POST /files 200',
				]);
				expect(wide.state.files.get(Number(outputs[0][0].json.id))!.sha256).toBe(sha256(content));
				expect(wide.storageRequests).toHaveLength(0);
			} finally {
				await wide.stop();
			}
		},
	);

	it('up to 32 MiB stays one POST /files', async () => {
		const content = randomBytes(32 * MiB);
		const { error } = await runNode({
			parameters: upload(),
			credentials: credentialsFor(emu),
			items: [binaryItem(content, { fileName: 'edge.txt' })],
		});
		expect(error).toBeUndefined();
		expect(paths()).toEqual(['POST /files']);
	});

	it('a PUT the storage host refuses is a NodeApiError in plain words, and nothing is registered', async () => {
		emu.setFaults({ signedUrlTampered: true });
		const content = randomBytes(33 * MiB);
		const { error } = await runNode({
			parameters: upload(),
			credentials: credentialsFor(emu),
			items: [binaryItem(content, { fileName: 'x.txt', mimeType: 'text/plain' })],
		});
		expect(error?.constructor.name).toBe('NodeApiError');
		expect(error?.message).toBe('The storage host refused the upload of "x.txt" (HTTP 403)');
		expect(paths()).toEqual(['POST /v2/files/sign']);
		expect(emu.state.files.size).toBe(0);
	});

	it('the storage host checks the signature and refuses the API key', async () => {
		const sign = await fetch(`${emu.url}/v2/files/sign`, {
			method: 'POST',
			headers: {
				Authorization: `Bearer ${emu.apiKey}`,
				'x-workspace-id': emu.workspaceId,
				'Content-Type': 'application/json',
			},
			body: JSON.stringify({ filename: 'a.txt', content_type: 'text/plain', size: 3 }),
		});
		const { upload_url: url } = (await sign.json()) as { upload_url: string };
		const put = (target: string, headers: Record<string, string>) =>
			fetch(target, { method: 'PUT', headers, body: 'abc' });
		expect(
			(await put(url, { 'Content-Type': 'text/plain', Authorization: `Bearer ${emu.apiKey}` }))
				.status,
		).toBe(400);
		expect(
			(await put(url, { 'Content-Type': 'text/plain', 'x-workspace-id': emu.workspaceId })).status,
		).toBe(400);
		expect((await put(url, { 'Content-Type': 'application/pdf' })).status).toBe(403);
		// one character of the signature changed (to another hex digit, whatever it was)
		const tampered = url.replace(
			/signature=(\w)/,
			(_all, first: string) => `signature=${first === '0' ? '1' : '0'}`,
		);
		expect((await put(tampered, { 'Content-Type': 'text/plain' })).status).toBe(403);
		expect((await put(url, { 'Content-Type': 'text/plain' })).status).toBe(200);
	});
});

describe('Agent → Execute attachments', () => {
	const execute = (options: IDataObject): INodeParameters => ({
		resource: 'agent',
		operation: 'execute',
		agentId: byId(CHAT),
		message: 'Read the attachment',
		options: { binaryProperties: 'data', ...options },
	});

	it('are processed and waited for before the run by default', async () => {
		const { outputs, error } = await runNode({
			parameters: execute({}),
			credentials: credentialsFor(emu),
			items: [
				binaryItem(Buffer.from('a small note'), { fileName: 'note.txt', mimeType: 'text/plain' }),
			],
		});
		expect(error).toBeUndefined();
		expect(outputs[0][0].json.status).toBe('succeeded');
		const uploadRequest = emu.requests.find((r) => r.path === '/files')!;
		expect((uploadRequest.body as { fields: IDataObject }).fields).toEqual({ process: '1' });
		const executeAt = emu.requests.findIndex((r) => r.path.endsWith('/execute'));
		const polls = emu.requests
			.slice(0, executeAt)
			.filter((r) => r.method === 'GET' && r.path.startsWith('/files/'));
		expect(polls.length).toBeGreaterThan(0);
		const fileId = (emu.requests[executeAt].body as IDataObject).file_ids as number[];
		expect(emu.state.files.get(fileId[0])!.status).toBe('completed');
	});

	it('with Process Attachments First off, are only uploaded and attached', async () => {
		const { error } = await runNode({
			parameters: execute({ processAttachments: false }),
			credentials: credentialsFor(emu),
			items: [
				binaryItem(Buffer.from('a small note'), { fileName: 'note.txt', mimeType: 'text/plain' }),
			],
		});
		expect(error).toBeUndefined();
		// (the agent's definition, read by the test before, is kept in the process)
		expect(paths().filter((p) => !p.startsWith('GET /agent-responses/'))).toEqual([
			'POST /files',
			'POST /agents/1/execute',
		]);
		expect((emu.requests[0].body as { fields: IDataObject }).fields).toEqual({});
	});

	it('above 32 MiB go through the signed-URL flow too, with process set at registration', async () => {
		const content = randomBytes(33 * MiB);
		const { error } = await runNode({
			parameters: execute({}),
			credentials: credentialsFor(emu),
			items: [binaryItem(content, { fileName: 'big.txt', mimeType: 'text/plain' })],
		});
		expect(error).toBeUndefined();
		expect(paths().filter((p) => p.startsWith('POST'))).toEqual([
			'POST /v2/files/sign',
			'POST /v2/files/register',
			'POST /agents/1/execute',
		]);
		expect(emu.requests.find((r) => r.path === '/v2/files/register')!.body).toMatchObject({
			process: true,
		});
		expect(emu.storageRequests[0].sha256).toBe(sha256(content));
	});
});

describe('generated_files of image and video agents', () => {
	it.each([
		['image', IMAGE, GENERATED_PNG],
		['video', VIDEO, GENERATED_MP4],
	])(
		"the %s agent's file reaches the simplified output, and its URL serves the known bytes",
		async (_type, agentId, media) => {
			const agent = emu.state.agents.get(agentId)!;
			const answers: IDataObject = {};
			for (const q of agent.questions) {
				if (q.required)
					answers[q.name] = q.type === 'select' ? String(q.options![0]) : 'a cat on a boat';
			}
			const { outputs, error } = await runNode({
				parameters: {
					resource: 'agent',
					operation: 'execute',
					agentId: byId(agentId),
					options: { answersJson: JSON.stringify(answers) },
				},
				credentials: credentialsFor(emu),
			});
			expect(error).toBeUndefined();
			const item = outputs[0][0].json;
			expect(String(item.output).length).toBeGreaterThan(0);
			const files = item.generated_files as Array<{
				url: string;
				name: string;
				mime_type: string;
				size: number;
			}>;
			expect(files).toEqual([
				{
					name: media.name,
					url: expect.stringMatching(/^http:\/\//),
					mime_type: media.mimeType,
					size: media.bytes.length,
				},
			]);
			const res = await fetch(files[0].url);
			expect(res.status).toBe(200);
			expect(res.headers.get('content-type')).toBe(media.mimeType);
			expect(sha256(Buffer.from(await res.arrayBuffer()))).toBe(media.sha256);
			// the storage host refuses the API key: a node must download without it
			const withKey = await fetch(files[0].url, {
				headers: { Authorization: `Bearer ${emu.apiKey}` },
			});
			expect(withKey.status).toBe(400);
		},
	);

	it('the PNG is a real PNG', () => {
		expect(GENERATED_PNG.bytes.subarray(0, 8)).toEqual(
			Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		);
		expect(GENERATED_PNG.bytes.readUInt32BE(16)).toBe(32); // width from IHDR
		expect(GENERATED_MP4.bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
		expect(sha256(GENERATED_PNG.bytes)).toBe(GENERATED_PNG.sha256);
		expect(sha256(GENERATED_MP4.bytes)).toBe(GENERATED_MP4.sha256);
	});
});
