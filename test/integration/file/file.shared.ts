/** What the tests split from file.test.ts share: set-up (its hooks run in each file that imports this), helpers and fixtures. */
import { createHash } from 'node:crypto';

import type { IDataObject, INodeParameters } from 'n8n-workflow';
import type { PlatformEmulator, RecordedMultipart, RecordedRequest } from '../../../dev/emulator';
import { credentialsFor } from '../../infra/n8n/credentials';
import { binaryItem, runNode } from '../../infra/n8n/runNode';
import { useEmulator } from '../../infra/useEmulator';
import { CHAT_AGENT } from '../../../dev/emulator';

export let emu: PlatformEmulator;
export { CHAT_AGENT };

// 100 virtual seconds per real second: processing a file (2 virtual seconds) takes 20 ms.

useEmulator({ timeScale: 100, maxStoredFiles: 1000, quiet: true }, (started) => (emu = started));
beforeEach(() => {
	emu.state.files.clear();
	for (const agent of emu.state.agents.values()) agent.fileIds = [];
});

export const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
export const posts = (path = '/files') =>
	emu.requests.filter((r) => r.method === 'POST' && r.path === path);
export const multipart = (r: RecordedRequest) => r.body as RecordedMultipart;

export function upload(extra: INodeParameters = {}): INodeParameters {
	return { resource: 'file', operation: 'upload', binaryPropertyName: 'data', ...extra };
}

/** Uploads one small file through the node; resolves the File record it output. */
export async function uploadThroughNode(
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
