/**
 * File and Agent File operations against the emulator, through n8n's real execution machinery
 * (test/infra/n8n/): the streamed upload (compared byte for byte with the `form-data`
 * package's encoding), processing and waiting for it, paging, the file picker, linking files
 * to agents, and every check that must refuse a file before anything is sent.
 *
 * This file: files refused before anything is sent.
 */
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Container } from '@n8n/di';
import { BinaryDataService } from 'n8n-core';
import type { IBinaryData, INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import {
	checkUploadable,
	MAX_UPLOAD_BYTES,
	SUPPORTED_EXTENSIONS,
} from '../../../nodes/AgentPlatform/helpers/files/binary';
import { ALLOWED_EXTENSIONS, startEmulator } from '../../../dev/emulator';
import { credentialsFor } from '../../infra/n8n/credentials';
import { listSearch } from '../../infra/n8n/loadOptions';
import { binaryItem, runNode } from '../../infra/n8n/runNode';
import { emu, multipart, posts, upload } from './file.shared';

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
