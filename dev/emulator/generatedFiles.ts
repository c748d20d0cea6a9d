/**
 * Generated files (what image and video agents produce), for the tests of "Download Generated
 * Files": a route on the platform's own origin that serves registered files to authenticated
 * callers (`GET /generated-files/:name`). The other host, which serves them to anyone, is the
 * tests' (test/infra/fileHost.ts).
 */
import type { EmulatorServices } from './services';
import { notFound } from './http';
import type { Ctx, Reply } from './http';

export interface ServedFile {
	body: Buffer;
	contentType: string;
}

const onPlatform = new WeakMap<EmulatorServices, Map<string, ServedFile>>();

/** Files served at `/generated-files/:name` on the emulator's own origin (authenticated). */
export function platformFiles(core: EmulatorServices): Map<string, ServedFile> {
	let files = onPlatform.get(core);
	if (!files) onPlatform.set(core, (files = new Map()));
	return files;
}

export function serveGeneratedFile(ctx: Ctx): Reply {
	const file = platformFiles(ctx.core).get(ctx.params.name);
	if (!file) throw notFound('File not found');
	return {
		kind: 'bytes',
		status: 200,
		body: file.body,
		headers: { 'Content-Type': file.contentType },
	};
}
