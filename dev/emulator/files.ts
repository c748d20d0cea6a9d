/**
 * Files: POST /files (multipart, parsed by busboy, streamed through sha256 without buffering),
 * GET /files/{id}, GET /files (order, page, per_page), DELETE /files/{id},
 * POST /files/{id}/process.
 */
import { createHash } from 'node:crypto';
import busboy from 'busboy';
import type { EmulatorServices } from './services';
import { HttpError, json, notFound, parseId, strictInt, truthy, validation } from './http';
import type { Ctx, Reply } from './http';
import type { RecordedFile, RecordedMultipart, StoredFile } from './types';

export const MAX_FILE_BYTES = 200 * 1024 * 1024;
/** Content of files up to this size is kept in memory (for tests). */
export const KEEP_CONTENT_BYTES = 1024 * 1024;
/** Production's own answer to a file of another type: the emulator's list of extensions is read
 * from it, as the platform publishes it (the node keeps its own copy; a test compares the two). */
export const EXTENSION_MESSAGE =
	'The file must be a file of type: txt, doc, docx, csv, pdf, xls, xlsx, ppt, pptx, jpg, jpeg, png, gif, bmp, svg, tiff, webp, mp4, avi, mov, mkv, wmv, flv, mp3, wav, aac, ogg, flac, m4a, bas, bat, xml, css, dart, html, htm, inc, js, json, kt, lua, pas, php, pl, ps1, py, r, sh, vsd, sql, swift, ts, vb, vba, yml, yaml, md.';
export const ALLOWED_EXTENSIONS = EXTENSION_MESSAGE.replace(/^.*: |\.$/g, '').split(', ');
export const TOO_LARGE_MESSAGE = 'The file may not be greater than 200 MB.';
export const TOO_LARGE_DIRECT_MESSAGE = (limit: number) =>
	`The file may not be greater than ${Math.round(limit / (1024 * 1024))} MB on this endpoint: larger files go through /v2/files/sign.`;

/** POST /files takes at most this many bytes (production's front end: 32 MiB; options.maxDirectUploadBytes). */
function directLimit(core: EmulatorServices): number {
	return Math.min(MAX_FILE_BYTES, core.opts.maxDirectUploadBytes);
}

export function fileJson(f: StoredFile) {
	return {
		id: f.id,
		object: f.object,
		created_at: f.created_at,
		bytes: f.bytes,
		filename: f.filename,
		credits: f.credits,
		status: f.status,
	};
}

export function processingCredits(bytes: number): number {
	return Math.round((0.1 + bytes / 1_000_000) * 10_000) / 10_000;
}

export function scheduleProcessing(core: EmulatorServices, f: StoredFile): void {
	f.status = 'waiting';
	core.clock.after(core.opts.fileProcessingSeconds, () => {
		if (!core.state.files.has(f.id)) return;
		f.status = 'completed';
		f.credits = Math.round((f.credits + processingCredits(f.bytes)) * 10_000) / 10_000;
	});
}

export function extensionOf(filename: string): string {
	const i = filename.lastIndexOf('.');
	return i >= 0 ? filename.slice(i + 1).toLowerCase() : '';
}

function fileRequired(): HttpError {
	return validation('file', 'The file field is required.');
}

/** Drains the rest of a request body we no longer read, destroying the socket if it never ends. */
function drain(ctx: Ctx): void {
	const req = ctx.req;
	if (req.readableEnded) return;
	req.resume();
	const t = setTimeout(() => req.socket.destroy(), 30_000);
	t.unref();
	req.once('end', () => clearTimeout(t));
	req.once('close', () => clearTimeout(t));
}

export function uploadFile(ctx: Ctx): Promise<Reply> {
	const core = ctx.core;
	const req = ctx.req;
	const recorded: RecordedMultipart = { fields: {}, files: [] };
	ctx.record.body = recorded;

	return new Promise<Reply>((resolve) => {
		let settled = false;
		const settle = (r: Reply | HttpError) => {
			if (settled) return;
			settled = true;
			resolve(r instanceof HttpError ? json(r.status, r.body, r.headers) : r);
		};

		const ct = String(req.headers['content-type'] ?? '');
		if (!ct.toLowerCase().startsWith('multipart/form-data')) {
			drain(ctx);
			settle(fileRequired());
			return;
		}
		let bb: busboy.Busboy;
		try {
			bb = busboy({
				headers: req.headers,
				defParamCharset: 'utf8',
				limits: { fileSize: directLimit(core) + 1, fieldSize: 1024 * 1024 },
			});
		} catch {
			drain(ctx);
			settle(fileRequired());
			return;
		}

		let accepted: (RecordedFile & { content: Buffer | null }) | null = null;
		let fileParts = 0;
		let tooLarge = false;

		bb.on('field', (name, value) => {
			recorded.fields[name] = value;
		});

		bb.on('file', (field, stream, info) => {
			fileParts++;
			const entry: RecordedFile = {
				field,
				filename: info.filename ?? '',
				mimeType: info.mimeType,
				bytes: 0,
				sha256: '',
			};
			recorded.files.push(entry);
			const hash = createHash('sha256');
			let bytes = 0;
			let chunks: Buffer[] | null = [];
			stream.on('data', (chunk: Buffer) => {
				hash.update(chunk);
				bytes += chunk.length;
				if (chunks) {
					if (bytes <= KEEP_CONTENT_BYTES) chunks.push(chunk);
					else chunks = null;
				}
			});
			stream.on('limit', () => {
				// More than 200 MB: stop parsing, answer now, drain the rest of the body.
				tooLarge = true;
				entry.bytes = bytes;
				req.unpipe(bb);
				drain(ctx);
				settle(
					new HttpError(413, {
						message:
							directLimit(core) < MAX_FILE_BYTES
								? TOO_LARGE_DIRECT_MESSAGE(directLimit(core))
								: TOO_LARGE_MESSAGE,
					}),
				);
			});
			stream.on('end', () => {
				entry.bytes = bytes;
				entry.sha256 = hash.digest('hex');
				if (!tooLarge && field === 'file' && fileParts === 1) {
					accepted = { ...entry, content: chunks ? Buffer.concat(chunks) : null };
				}
			});
		});

		bb.on('error', () => {
			req.unpipe(bb);
			drain(ctx);
			settle(validation('file', 'The file failed to upload.'));
		});

		bb.on('close', () => {
			if (tooLarge) return;
			const fileEntries = recorded.files.filter((f) => f.field === 'file');
			if (fileParts > 1)
				return settle(validation('file', 'Only one file can be uploaded per request.'));
			if (fileEntries.length === 0 || !accepted) return settle(fileRequired());
			const up = accepted as RecordedFile & { content: Buffer | null };
			if (!ALLOWED_EXTENSIONS.includes(extensionOf(up.filename)))
				return settle(validation('file', EXTENSION_MESSAGE));
			if (core.state.files.size >= core.opts.maxStoredFiles) {
				const max = core.opts.maxStoredFiles;
				return settle(
					new HttpError(422, {
						message: `File storage limit reached: at most ${max} files can be stored. Delete files to upload more.`,
					}),
				);
			}
			const f: StoredFile = {
				id: core.nextId('file'),
				object: 'file',
				created_at: core.clock.isoSeconds(),
				bytes: up.bytes,
				filename: up.filename,
				credits: 0,
				status: 'waiting',
				mimeType: up.mimeType,
				sha256: up.sha256,
				content: up.content,
			};
			core.state.files.set(f.id, f);
			if (truthy(recorded.fields.process)) scheduleProcessing(core, f);
			settle(json(200, fileJson(f)));
		});

		req.on('aborted', () => settle({ kind: 'handled' }));
		req.pipe(bb);
	});
}

function findFile(ctx: Ctx, raw: string): StoredFile {
	const id = parseId(raw);
	const f = id === null ? undefined : ctx.core.state.files.get(id);
	if (!f) throw notFound('File not found');
	return f;
}

export function getFile(ctx: Ctx): Reply {
	return json(200, fileJson(findFile(ctx, ctx.params.fileId)));
}

export function listFiles(ctx: Ctx): Reply {
	const page = strictInt(ctx.query, 'page', 1, 1);
	const perPage = strictInt(ctx.query, 'per_page', 15, 1, 100);
	const order = ctx.query.order ?? 'desc';
	if (order !== 'asc' && order !== 'desc')
		throw validation('order', 'The selected order is invalid.');
	const sign = order === 'asc' ? 1 : -1;
	const items = [...ctx.core.state.files.values()].sort((a, b) => {
		const c = a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id - b.id;
		return sign * c;
	});
	const start = (page - 1) * perPage;
	return json(200, { data: items.slice(start, start + perPage).map(fileJson) });
}

export function deleteFile(ctx: Ctx): Reply {
	const f = findFile(ctx, ctx.params.fileId);
	ctx.core.state.files.delete(f.id);
	for (const a of ctx.core.state.agents.values()) a.fileIds = a.fileIds.filter((x) => x !== f.id);
	return json(200, { message: 'File deleted', id: f.id });
}

export function processFile(ctx: Ctx): Reply {
	const f = findFile(ctx, ctx.params.fileId);
	scheduleProcessing(ctx.core, f);
	return json(200, fileJson(f));
}
