/**
 * "Download Generated Files" on Agent → Execute and Agent Response → Get, against the emulator:
 * files on the platform's own origin are fetched with the API key, files on another host without
 * it; every accepted shape of `generated_files`; the binaries land in n8n's binary store with
 * their bytes, name and MIME type; a non-http(s) URL and a failed download name the file and the
 * run.
 */
import { Container } from '@n8n/di';
import { BinaryDataService } from 'n8n-core';
import type { IBinaryData, IDataObject, INodeParameters } from 'n8n-workflow';

import type { PlatformEmulator } from '../../../dev/emulator';
import { GENERATED_MP4, GENERATED_PNG, startEmulator } from '../../../dev/emulator';
import { FileHost, SAMPLE_PNG, sha256 } from '../../infra/fileHost';
import { byId, credentialsFor } from '../../infra/n8n/credentials';
import { runNode } from '../../infra/n8n/runNode';
import { IMAGE_AGENT as IMAGE, VIDEO_AGENT as VIDEO } from '../../../dev/emulator';

let emu: PlatformEmulator;
let host: FileHost;
const CLIP = Buffer.from('not really a video, but bytes of a known digest\n'.repeat(2000));

beforeAll(async () => {
	emu = await startEmulator({ timeScale: 100, executionSeconds: 1, quiet: true });
	host = new FileHost();
	await host.start();
	host.files.set('clip.mp4', { body: CLIP, contentType: 'video/mp4' });
	host.files.set('otter.png', { body: SAMPLE_PNG, contentType: 'image/png' });
});
afterAll(async () => {
	await emu.stop();
	await host.stop();
});
beforeEach(() => {
	emu.clearRequests();
	host.hits.length = 0;
});
afterEach(() => emu.configureAgent(IMAGE, { generatedFiles: undefined }));

const size = () =>
	String(emu.state.agents.get(IMAGE)!.questions.find((q) => q.name === 'size')!.options![0]);

function execute(options: IDataObject = { downloadGeneratedFiles: true }): INodeParameters {
	return {
		resource: 'agent',
		operation: 'execute',
		agentId: byId(IMAGE),
		answers: { mappingMode: 'defineBelow', value: { prompt: 'An otter on a rock', size: size() } },
		options,
	} as INodeParameters;
}

async function bytesOf(binary: IBinaryData): Promise<Buffer> {
	return await Container.get(BinaryDataService).getAsBuffer(binary);
}

const fileRequests = () => emu.requests.filter((r) => r.path.startsWith('/generated-files/'));

describe('Download Generated Files', () => {
	it("the image and video agents' own files (the storage host): a real PNG and an MP4, no API key sent", async () => {
		const image = await runNode({ parameters: execute(), credentials: credentialsFor(emu) });
		expect(image.error).toBeUndefined();
		const png = image.outputs[0][0].binary!.data;
		expect(png).toMatchObject({ fileName: GENERATED_PNG.name, mimeType: GENERATED_PNG.mimeType });
		expect(sha256(await bytesOf(png))).toBe(GENERATED_PNG.sha256);
		const video = await runNode({
			parameters: {
				resource: 'agent',
				operation: 'execute',
				agentId: byId(VIDEO),
				answers: {
					mappingMode: 'defineBelow',
					value: { script: 'Otters at play', resolution: '720p' },
				},
				options: { downloadGeneratedFiles: true },
			},
			credentials: credentialsFor(emu),
		});
		expect(video.error).toBeUndefined();
		const mp4 = video.outputs[0][0].binary!.data;
		expect(mp4).toMatchObject({ fileName: GENERATED_MP4.name, mimeType: GENERATED_MP4.mimeType });
		expect(sha256(await bytesOf(mp4))).toBe(GENERATED_MP4.sha256);
		const downloads = emu.storageRequests.filter((r) => r.path.startsWith('/generated/'));
		expect(downloads.map((r) => r.status)).toEqual([200, 200]);
		expect(downloads.every((r) => r.headers.authorization === undefined)).toBe(true);
	});

	it("a file on the platform's origin: fetched with the API key, stored with its bytes, name and type", async () => {
		const url = emu.serveGeneratedFile('otter.png', SAMPLE_PNG, 'image/png');
		emu.configureAgent(IMAGE, { generatedFiles: [url] });
		const { outputs, error } = await runNode({
			parameters: execute(),
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		const item = outputs[0][0];
		const binary = item.binary!.data;
		expect(binary).toMatchObject({ fileName: 'otter.png', mimeType: 'image/png' });
		expect(binary.id).toBeTruthy(); // in n8n's binary store, not inline
		expect(sha256(await bytesOf(binary))).toBe(sha256(SAMPLE_PNG));
		expect(item.json.generated_files).toEqual([{ url, binary_property: 'data' }]);
		expect(fileRequests()).toHaveLength(1);
		expect(fileRequests()[0].headers.authorization).toBe(`Bearer ${emu.apiKey}`);
	});

	it('files on another host: no API key, every shape accepted, other fields kept, data and data_1', async () => {
		emu.configureAgent(IMAGE, {
			generatedFiles: [
				{
					download_url: `${host.url}/clip.mp4`,
					filename: 'scene-1.mp4',
					mime_type: 'video/mp4',
					duration: 3,
				},
				{ file_url: `${host.url}/otter.png`, name: 'Otter.png', width: 4 },
				{ note: 'an entry without a URL is left out' },
			],
		});
		const { outputs, error } = await runNode({
			parameters: execute(),
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		const { json, binary } = outputs[0][0];
		expect(binary!.data).toMatchObject({ fileName: 'scene-1.mp4', mimeType: 'video/mp4' });
		expect(binary!.data_1).toMatchObject({ fileName: 'Otter.png', mimeType: 'image/png' });
		expect(sha256(await bytesOf(binary!.data))).toBe(sha256(CLIP));
		expect(sha256(await bytesOf(binary!.data_1))).toBe(sha256(SAMPLE_PNG));
		expect(json.generated_files).toEqual([
			{
				url: `${host.url}/clip.mp4`,
				download_url: `${host.url}/clip.mp4`,
				filename: 'scene-1.mp4',
				mime_type: 'video/mp4',
				duration: 3,
				binary_property: 'data',
			},
			{
				url: `${host.url}/otter.png`,
				file_url: `${host.url}/otter.png`,
				name: 'Otter.png',
				width: 4,
				binary_property: 'data_1',
			},
		]);
		expect(host.hits.map((hit) => hit.path)).toEqual(['/clip.mp4', '/otter.png']);
		for (const hit of host.hits) {
			expect(hit.headers.authorization).toBeUndefined();
			expect(hit.headers['x-workspace-id']).toBeUndefined();
			expect(JSON.stringify(hit.headers)).not.toContain(emu.apiKey);
		}
	});

	it('Agent Response → Get downloads them too; without the option nothing is downloaded', async () => {
		emu.configureAgent(IMAGE, { generatedFiles: [`${host.url}/otter.png`] });
		const plain = await runNode({ parameters: execute({}), credentials: credentialsFor(emu) });
		expect(plain.error).toBeUndefined();
		expect(plain.outputs[0][0].binary).toBeUndefined();
		expect(host.hits).toHaveLength(0);
		const fetched = await runNode({
			parameters: {
				resource: 'agentResponse',
				operation: 'get',
				responseId: String(plain.outputs[0][0].json.id),
				options: { downloadGeneratedFiles: true },
			},
			credentials: credentialsFor(emu),
		});
		expect(fetched.error).toBeUndefined();
		expect(fetched.outputs[0][0].binary!.data).toMatchObject({
			fileName: 'otter.png',
			mimeType: 'image/png',
		});
		expect(host.hits).toHaveLength(1);
	});

	it('a URL that is not http(s) is never fetched: the error names the file and the run', async () => {
		emu.configureAgent(IMAGE, {
			generatedFiles: [{ url: 'file:///etc/passwd', name: 'secrets.txt' }],
		});
		const { error } = await runNode({ parameters: execute(), credentials: credentialsFor(emu) });
		const runId = [...emu.state.runs.keys()].pop();
		expect(error?.message).toBe(
			`Cannot download the generated file "secrets.txt" of run ${runId}: its address is not an http(s) URL (item 1)`,
		);
	});

	it('a download that fails names the file and the run, and never carries the API key', async () => {
		emu.configureAgent(IMAGE, {
			generatedFiles: [`${host.url}/missing.png`, `${emu.url}/generated-files/gone.png`],
		});
		const first = await runNode({ parameters: execute(), credentials: credentialsFor(emu) });
		const runId = [...emu.state.runs.keys()].pop();
		expect(first.error?.message).toBe(
			`Could not download the generated file "missing.png" of run ${runId} (item 1)`,
		);
		expect(String((first.error as { description?: string }).description)).toContain('HTTP 404');
		emu.configureAgent(IMAGE, { generatedFiles: [`${emu.url}/generated-files/gone.png`] });
		const second = await runNode({ parameters: execute(), credentials: credentialsFor(emu) });
		expect(second.error?.message).toMatch(
			/^Could not download the generated file "gone.png" of run \d+ \(item 1\)$/,
		);
		expect(JSON.stringify(second.error)).not.toContain(emu.apiKey);
	});
});
