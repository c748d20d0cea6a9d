/**
 * File and Agent File operations against the emulator, through n8n's real execution machinery
 * (test/infra/n8n/): the streamed upload (compared byte for byte with the `form-data`
 * package's encoding), processing and waiting for it, paging, the file picker, linking files
 * to agents, and every check that must refuse a file before anything is sent.
 *
 * This file: File → Get, Get Many, Delete, Process; processing that outlasts the timeout; the file picker.
 */

import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { startEmulator } from '../../../dev/emulator';
import { byId, credentialsFor } from '../../infra/n8n/credentials';
import { listSearch } from '../../infra/n8n/loadOptions';
import { binaryItem, runNode } from '../../infra/n8n/runNode';
import { seedFiles } from '../../infra/seedFiles';
import { emu, upload, uploadThroughNode } from './file.shared';

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
