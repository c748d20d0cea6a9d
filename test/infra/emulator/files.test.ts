/**
 * Integration tests of the platform emulator (dev/emulator) over loopback with Node's fetch.
 * They pin the emulator to the platform's contract (and production's behaviour where it differs,
 * docs/platform-assumptions.md): envelopes, field sets, messages,
 * lifecycle in virtual time, streams, multipart, limits, webhooks deliveries and faults.
 *
 * This file: files.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import NodeFormData from 'form-data';
import { PlatformEmulator, startEmulator } from '../../../dev/emulator';
import type { RecordedMultipart } from '../../../dev/emulator';
import { FILE_KEYS, FILE_TS, Json, call, emu, firstAgent, headers, keys } from './shared';

describe('files', () => {
	const content = Buffer.from('hello multipart world\n'.repeat(100));
	const sha = createHash('sha256').update(content).digest('hex');

	it('parses uploads identically from form-data and from native FormData/Blob', async () => {
		const name = 'résumé notes.txt';
		emu.clearRequests();

		const fd1 = new NodeFormData();
		fd1.append('process', 'true');
		fd1.append('file', content, { filename: name, contentType: 'text/plain' });
		const r1 = await fetch(`${emu.url}/files`, {
			method: 'POST',
			headers: { ...headers(emu), ...fd1.getHeaders() },
			body: fd1.getBuffer(),
		});

		const fd2 = new FormData();
		fd2.append('process', 'true');
		fd2.append('file', new Blob([content], { type: 'text/plain' }), name);
		const r2 = await fetch(`${emu.url}/files`, {
			method: 'POST',
			headers: headers(emu),
			body: fd2,
		});

		expect(r1.status).toBe(200);
		expect(r2.status).toBe(200);
		const f1 = (await r1.json()) as Json;
		const f2 = (await r2.json()) as Json;
		for (const f of [f1, f2]) {
			expect(keys(f)).toEqual(FILE_KEYS);
			expect(f).toMatchObject({
				object: 'file',
				bytes: content.length,
				filename: name,
				credits: 0,
				status: 'waiting',
			});
			expect(f.created_at).toMatch(FILE_TS);
		}
		const [b1, b2] = emu.requests.map((r) => r.body as RecordedMultipart);
		expect(b1).toEqual(b2);
		expect(b1).toEqual({
			fields: { process: 'true' },
			files: [
				{
					field: 'file',
					filename: name,
					mimeType: 'text/plain',
					bytes: content.length,
					sha256: sha,
				},
			],
		});
		expect(emu.state.files.get(f1.id)!.content!.equals(content)).toBe(true);

		const processed = await (async () => {
			for (let i = 0; i < 100; i++) {
				const f = (await call(`/files/${f1.id}`)).json;
				if (f.status === 'completed') return f;
				await new Promise((r) => setTimeout(r, 20));
			}
			throw new Error('never processed');
		})();
		expect(processed.credits).toBeGreaterThan(0);
	});

	it('rejects a second file, a bad extension and a missing file with 422', async () => {
		const two = new FormData();
		two.append('file', new Blob(['a']), 'a.txt');
		two.append('file', new Blob(['b']), 'b.txt');
		let r = await fetch(`${emu.url}/files`, { method: 'POST', headers: headers(emu), body: two });
		expect(r.status).toBe(422);

		const exe = new FormData();
		exe.append('file', new Blob(['MZ']), 'tool.exe');
		r = await fetch(`${emu.url}/files`, { method: 'POST', headers: headers(emu), body: exe });
		expect(r.status).toBe(422);
		const j = (await r.json()) as Json;
		expect(j.message).toMatch(/^The file must be a file of type: txt, doc, docx, csv, pdf, /);
		expect(j.errors.file).toEqual([j.message]);

		const none = new FormData();
		none.append('process', 'false');
		r = await fetch(`${emu.url}/files`, { method: 'POST', headers: headers(emu), body: none });
		expect(r.status).toBe(422);
		expect(((await r.json()) as Json).message).toBe('The file field is required.');
	});

	/** Streams a multipart upload of `total` bytes; stops sending once the emulator has answered. */
	async function postBigFile(
		server: PlatformEmulator,
		total: number,
	): Promise<{ status: number; body: string }> {
		const boundary = '----emulator-test-boundary';
		const head = Buffer.from(
			`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`,
		);
		const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
		const chunk = Buffer.alloc(4 * 1024 * 1024, 0x61);
		const u = new URL(`${server.url}/files`);
		return await new Promise<{ status: number; body: string }>((resolve, reject) => {
			let answered = false;
			const req = http.request(
				{
					host: u.hostname,
					port: u.port,
					path: u.pathname,
					method: 'POST',
					agent: false,
					headers: {
						...headers(server),
						'Content-Type': `multipart/form-data; boundary=${boundary}`,
						'Content-Length': head.length + total + tail.length,
					},
				},
				(res) => {
					answered = true;
					let body = '';
					res.on('data', (c) => (body += c));
					res.on('end', () => {
						resolve({ status: res.statusCode ?? 0, body });
						req.destroy();
					});
				},
			);
			// the emulator may close the connection once it has answered: the rest is not needed
			req.on('error', (error) => (answered ? undefined : reject(error)));
			let sent = 0;
			const pump = () => {
				while (sent < total && !answered) {
					const n = Math.min(chunk.length, total - sent);
					sent += n;
					if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n)))
						return void req.once('drain', pump);
				}
				if (!answered) req.end(tail);
			};
			req.write(head);
			pump();
		});
	}

	it('answers 413 past 200 MB without buffering the upload (with the direct limit raised to 200 MB)', async () => {
		const wide = await startEmulator({ quiet: true, maxDirectUploadBytes: 200 * 1024 * 1024 });
		try {
			const result = await postBigFile(wide, 200 * 1024 * 1024 + 1);
			expect(result.status).toBe(413);
			expect(JSON.parse(result.body)).toEqual({
				message: 'The file may not be greater than 200 MB.',
			});
		} finally {
			await wide.stop();
		}
	}, 30_000);

	it("answers 413 to POST /files past 32 MiB by default, as production's front end does", async () => {
		const result = await postBigFile(emu, 32 * 1024 * 1024 + 1);
		expect(result.status).toBe(413);
		expect(JSON.parse(result.body).message).toMatch(/32 MB on this endpoint/);
	}, 30_000);

	it('lists (order, paging, per_page bounds), gets, processes, deletes; links files to agents', async () => {
		const upload = async (name: string) => {
			const fd = new FormData();
			fd.append('file', new Blob([name]), name);
			const r = await fetch(`${emu.url}/files`, {
				method: 'POST',
				headers: headers(emu),
				body: fd,
			});
			return (await r.json()) as Json;
		};
		const a = await upload('a.md');
		const b = await upload('b.csv');
		const desc = (await call('/files?per_page=100')).json;
		expect(keys(desc)).toEqual(['data']);
		const ids = desc.data.map((f: Json) => f.id);
		expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
		const asc = (await call('/files?order=asc&per_page=100')).json.data.map((f: Json) => f.id);
		expect(asc).toEqual([...ids].reverse());
		expect((await call('/files?per_page=1&page=2')).json.data[0].id).toBe(ids[1]);
		expect((await call('/files?per_page=0')).status).toBe(422);
		expect((await call('/files?per_page=101')).status).toBe(422);
		expect((await call('/files?page=0')).status).toBe(422);

		const proc = await call(`/files/${a.id}/process`, { method: 'POST' });
		expect(proc.json).toMatchObject({ id: a.id, status: 'waiting' });
		await emu.waitFor(() => emu.state.files.get(a.id)!.status === 'completed');

		const agent = await firstAgent('text');
		const link = await call(`/agents/${agent.id}/files`, { body: { file_ids: [a.id, b.id] } });
		expect(link.status).toBe(200);
		expect(keys(link.json)).toEqual(['files', 'files_count', 'id', 'status']);
		expect(link.json).toMatchObject({
			id: agent.id,
			status: 'completed',
			files_count: { total: 2, completed: 1, failed: 0, in_progress: 1 },
		});
		expect(keys(link.json.files[0])).toEqual(FILE_KEYS);
		expect((await call(`/agents/${agent.id}/files`, { body: { file_ids: [] } })).status).toBe(422);
		expect((await call(`/agents/${agent.id}/files`, { body: { file_ids: [424242] } })).status).toBe(
			422,
		);
		const list = await call(`/agents/${agent.id}/files`);
		expect(keys(list.json)).toEqual(['files', 'id', 'status']);
		const un = await call(`/agents/${agent.id}/files/${b.id}`, { method: 'DELETE' });
		expect(un.json).toMatchObject({ id: agent.id, removed: true, file: { id: b.id } });
		expect((await call(`/agents/${agent.id}/files/${b.id}`, { method: 'DELETE' })).status).toBe(
			404,
		);

		const del = await call(`/files/${b.id}`, { method: 'DELETE' });
		expect(del.json).toEqual({ message: 'File deleted', id: b.id });
		expect((await call(`/files/${b.id}`, { method: 'DELETE' })).status).toBe(404);
	});

	it('stops at 30 stored files', async () => {
		const small = await startEmulator({ quiet: true, seed: { agents: 4, resources: 0 } });
		try {
			const up = async () => {
				const fd = new FormData();
				fd.append('file', new Blob(['x']), 'x.txt');
				return fetch(`${small.url}/files`, { method: 'POST', headers: headers(small), body: fd });
			};
			for (let i = 0; i < 30; i++) expect((await up()).status).toBe(200);
			const r = await up();
			expect(r.status).toBe(422);
			expect(await r.json()).toEqual({
				message:
					'File storage limit reached: at most 30 files can be stored. Delete files to upload more.',
			});
		} finally {
			await small.stop();
		}
	});
});
