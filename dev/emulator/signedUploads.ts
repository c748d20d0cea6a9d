/**
 * Production's path for large files (docs/platform-assumptions.md), as the most complete public
 * client uses it:
 *
 *   POST /v2/files/sign {filename, content_type, size}
 *     → {upload_url, object_path, required_headers, expires_at} (or the camelCase spellings, with
 *       faults.signedUploadSpelling = 'camel': the client accepts both, so the emulator can send either)
 *   PUT <upload_url> with exactly the required headers (storage.ts, on its own port)
 *   POST /v2/files/register {object_path, filename, content_type, process} → the File object
 *
 * faults.signedUploads = 404 or 405 makes the sign step answer so, as a platform without it would.
 */
import { randomBytes } from 'node:crypto';

import {
	ALLOWED_EXTENSIONS,
	EXTENSION_MESSAGE,
	MAX_FILE_BYTES,
	extensionOf,
	fileJson,
	scheduleProcessing,
} from './files';
import { HttpError, bodyObject, isPresent, json, required, truthy, validation } from './http';
import type { Ctx, Reply } from './http';
import type { StoredFile } from './types';

function field(body: Record<string, unknown>, snake: string, camel: string): unknown {
	return body[snake] ?? body[camel];
}

function unavailable(ctx: Ctx): void {
	const status = ctx.core.faults.signedUploads;
	if (status === 404) throw new HttpError(404, { message: 'Not Found' });
	if (status === 405)
		throw new HttpError(
			405,
			{ message: `The POST method is not supported for route ${ctx.path.replace(/^\//, '')}.` },
			{ Allow: 'GET, HEAD' },
		);
}

export function signUpload(ctx: Ctx): Reply {
	unavailable(ctx);
	const storage = ctx.core.storage;
	if (!storage) throw new HttpError(503, { message: 'Storage is not available.' });
	const body = bodyObject(ctx);
	const filename = field(body, 'filename', 'fileName');
	const contentType = field(body, 'content_type', 'contentType');
	const size = Number(field(body, 'size', 'size'));
	if (!isPresent(filename) || typeof filename !== 'string') throw required('filename');
	if (!isPresent(contentType) || typeof contentType !== 'string') throw required('content_type');
	if (!Number.isSafeInteger(size) || size < 0)
		throw validation('size', 'The size field must be an integer.');
	if (!ALLOWED_EXTENSIONS.includes(extensionOf(filename)))
		throw validation('filename', EXTENSION_MESSAGE);
	if (size > MAX_FILE_BYTES)
		throw new HttpError(413, { message: 'The file may not be greater than 200 MB.' });
	const objectPath = `uploads/${ctx.core.opts.workspaceId}/${randomBytes(8).toString('hex')}/${filename}`;
	const signed = storage.sign(objectPath, contentType);
	const url = ctx.core.faults.signedUrlTampered
		? signed.url.replace(/signature=[0-9a-f]/, (m) =>
				m.endsWith('0') ? 'signature=1' : 'signature=0',
			)
		: signed.url;
	const { expiresAt } = signed;
	const requiredHeaders = { 'Content-Type': contentType };
	const expires = new Date(expiresAt).toISOString();
	if (ctx.core.faults.signedUploadSpelling === 'camel') {
		return json(200, { uploadUrl: url, objectPath, requiredHeaders, expiresAt: expires });
	}
	return json(200, {
		upload_url: url,
		object_path: objectPath,
		required_headers: requiredHeaders,
		expires_at: expires,
	});
}

export function registerUpload(ctx: Ctx): Reply {
	unavailable(ctx);
	const core = ctx.core;
	const body = bodyObject(ctx);
	const objectPath = field(body, 'object_path', 'objectPath');
	if (!isPresent(objectPath) || typeof objectPath !== 'string') throw required('object_path');
	const object = core.storage?.objects.get(objectPath);
	if (!object) throw validation('object_path', 'Nothing was uploaded to this object path.');
	const filename = String(field(body, 'filename', 'fileName') ?? objectPath.split('/').pop());
	if (!ALLOWED_EXTENSIONS.includes(extensionOf(filename)))
		throw validation('filename', EXTENSION_MESSAGE);
	if (core.state.files.size >= core.opts.maxStoredFiles) {
		throw new HttpError(422, {
			message: `File storage limit reached: at most ${core.opts.maxStoredFiles} files can be stored. Delete files to upload more.`,
		});
	}
	const f: StoredFile = {
		id: core.nextId('file'),
		object: 'file',
		created_at: core.clock.isoSeconds(),
		bytes: object.bytes,
		filename,
		credits: 0,
		status: 'waiting',
		mimeType: String(field(body, 'content_type', 'contentType') ?? object.contentType),
		sha256: object.sha256,
		content: object.content,
	};
	core.state.files.set(f.id, f);
	core.storage?.objects.delete(objectPath);
	if (truthy(body.process)) scheduleProcessing(core, f);
	return json(200, fileJson(f));
}
