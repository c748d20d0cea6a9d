/**
 * Agent executions against the emulator, through n8n's real execution machinery: every response
 * mode, runs longer than the platform's 100 s wait (time-scaled), broken and silent streams,
 * cancellation, failing runs, chat completions, and the checks made before any request.
 *
 * This file: stream and input binaries.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import type { StreamChunk } from '../../infra/n8n/runNode';
import { credentialsFor } from '../../infra/n8n/credentials';
import { binaryItem, runNode } from '../../infra/n8n/runNode';
import { emu, execute, polls, posts, TEXT } from './execute.shared';

describe('Agent → Execute: stream', () => {
	async function streamRun(extra: INodeParameters = {}) {
		const chunks: StreamChunk[] = [];
		const result = await runNode({
			parameters: execute({ responseMode: 'stream', ...extra }),
			credentials: credentialsFor(emu),
			streaming: { onChunk: (chunk) => chunks.push(chunk) },
		});
		return { ...result, chunks };
	}
	const recordOf = (id: unknown) => emu.state.runs.get(Number(id));

	it('assembles the deltas into one item and forwards each to the caller', async () => {
		const { outputs, error, chunks } = await streamRun();
		expect(error).toBeUndefined();
		const item = outputs[0][0].json;
		expect(item.output).toBe(recordOf(item.id)?.output);
		expect(Number(item.credits)).toBeGreaterThan(0);
		const texts = chunks.filter((c) => c.type === 'item').map((c) => c.content);
		expect(texts.length).toBeGreaterThan(2);
		expect(texts.join('')).toBe(item.output);
		expect(chunks[0].type).toBe('begin');
		expect(chunks[chunks.length - 1].type).toBe('end');
		expect((posts()[0].body as IDataObject).stream).toBe(true);
	});

	it('a text agent with Stream left on: its run is waited for (no stream field, which the platform refuses for it) and its answer reaches the caller as one piece', async () => {
		const chunks: StreamChunk[] = [];
		const { outputs, error } = await runNode({
			parameters: execute(
				{
					responseMode: 'stream',
					answers: { mappingMode: 'defineBelow', value: { topic: 'Otters', tone: 'formal' } },
				},
				TEXT,
			),
			credentials: credentialsFor(emu),
			streaming: { onChunk: (chunk) => chunks.push(chunk) },
		});
		expect(error).toBeUndefined();
		const item = outputs[0][0].json;
		expect(item.status).toBe('succeeded');
		expect(item.output).toBe(recordOf(item.id)?.output);
		expect(posts()).toHaveLength(1);
		const body = posts()[0].body as IDataObject;
		expect(body.stream).toBeUndefined();
		expect(body).toMatchObject({ wait_execution: true, waitExecution: true });
		expect(chunks.map((c) => c.type)).toEqual(['begin', 'item', 'end']);
		expect(chunks[1].content).toBe(item.output);
	});

	it('a stream cut midway still returns the whole output, through polling, without a second run', async () => {
		emu.setFaults({ cutStreamAfterEvents: 2 });
		const before = emu.runCount;
		const { outputs, error, chunks } = await streamRun();
		expect(error).toBeUndefined();
		const item = outputs[0][0].json;
		expect(item.status).toBe('succeeded');
		expect(item.output).toBe(recordOf(item.id)?.output);
		expect(
			chunks
				.filter((c) => c.type === 'item')
				.map((c) => c.content)
				.join(''),
		).toBe(item.output);
		expect(emu.runCount - before).toBe(1);
		expect(polls().length).toBeGreaterThan(0);
	});

	it('a stream that goes silent falls back to polling after the idle timeout', async () => {
		emu.setFaults({ silentStreamAfterEvents: 1 });
		const { outputs, error } = await streamRun({ options: { idleTimeout: 1 } });
		expect(error).toBeUndefined();
		expect(outputs[0][0].json.output).toBe(recordOf(outputs[0][0].json.id)?.output);
	});
});

describe('Agent → Execute: input binaries', () => {
	it('uploads them first, streamed, and attaches them with the given file IDs', async () => {
		const text = Buffer.from('Quarterly numbers: up and to the right.\n');
		const { outputs, error } = await runNode({
			parameters: execute({ options: { binaryProperties: 'data', fileIds: '' } }),
			items: [binaryItem(text, { fileName: 'notes.txt', mimeType: 'text/plain' })],
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		expect(outputs[0][0].json.status).toBe('succeeded');
		const [upload, run] = posts();
		expect(upload.path).toBe('/files');
		const uploaded = (upload.body as { files: Array<{ filename: string; bytes: number }> })
			.files[0];
		expect(uploaded).toMatchObject({ filename: 'notes.txt', bytes: text.length });
		const fileId = [...emu.state.files.values()].find((f) => f.filename === 'notes.txt')!.id;
		expect((run.body as IDataObject).file_ids).toEqual([fileId]);
	});

	it('refuses a file type the platform does not take, before uploading anything', async () => {
		const { error } = await runNode({
			parameters: execute({ options: { binaryProperties: 'data' } }),
			items: [
				binaryItem(Buffer.from('MZ'), {
					fileName: 'tool.exe',
					mimeType: 'application/octet-stream',
				}),
			],
			credentials: credentialsFor(emu),
		});
		expect(error?.message).toMatch(/does not accept \.exe files/);
		expect(emu.requests).toHaveLength(0);
	});

	it('counts binaries and file IDs together against the limit of 5', async () => {
		const { error } = await runNode({
			parameters: execute({ options: { binaryProperties: 'data, other', fileIds: '1,2,3,4' } }),
			items: [binaryItem(Buffer.from('x'), { fileName: 'a.txt' })],
			credentials: credentialsFor(emu),
		});
		expect(error?.message).toBe(
			'6 files are attached, but the platform takes at most 5 per run (item 1)',
		);
		expect(emu.requests).toHaveLength(0);
	});
});
