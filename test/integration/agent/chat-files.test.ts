/**
 * Agent → Execute under a Chat Trigger attaches the chat's files only (the binaries n8n's chat puts
 * on the item: named by the item's `files` list, or the chat's data0, data1, …), never another
 * binary of the item; and Execute's output names the files that went with the run (`files`: id and
 * name), as the emulator's agent says it received them. Through n8n's real execution machinery and
 * the emulator.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { RecordedMultipart } from '../../../dev/emulator/types';
import { chatFileBinaries } from '../../../nodes/AgentPlatform/helpers/runs/executeRequest';
import { credentialsFor } from '../../infra/n8n/credentials';
import { binaryItem, runNode } from '../../infra/n8n/runNode';
import { emu, execute } from './execute.shared';

const uploads = () => emu.requests.filter((r) => r.method === 'POST' && r.path === '/files');
const executes = () =>
	emu.requests.filter((r) => r.method === 'POST' && /\/agents\/\d+\/execute$/.test(r.path));

/** One binary of an item, as n8n keeps it. */
const file = (fileName: string, text: string, mimeType = 'text/plain') =>
	binaryItem(Buffer.from(text), { fileName, mimeType }).binary!.data;

/** The Chat Trigger's item for a message with files (its `files` list names each binaryKey). */
function chatItem(
	chatInput: string,
	binary: Record<string, ReturnType<typeof file>>,
	files?: IDataObject[],
): INodeExecutionData {
	const json: IDataObject = { sessionId: 'chat-files', action: 'sendMessage', chatInput };
	if (files) json.files = files;
	return { json, binary } as INodeExecutionData;
}

async function executeUnderChat(item: INodeExecutionData, extra: IDataObject = {}) {
	const { outputs, error } = await runNode({
		typeVersion: 1.3,
		parameters: execute({ messageSource: 'chatTrigger', message: undefined, ...extra }),
		items: [item],
		credentials: credentialsFor(emu),
	});
	return { json: outputs[0]?.[0]?.json ?? {}, error };
}

const uploadedNames = () =>
	uploads()
		.map((r) => (r.body as RecordedMultipart).files.map((f) => f.filename))
		.flat();

/** A file stored on the platform beforehand (its ID given to Execute), as another workflow left it. */
async function storedFile(name: string, text: string): Promise<number> {
	const form = new FormData();
	form.append('file', new Blob([text], { type: 'text/plain' }), name);
	const answer = await fetch(`${emu.url}/files`, {
		method: 'POST',
		headers: { authorization: `Bearer ${emu.apiKey}`, 'x-workspace-id': String(emu.workspaceId) },
		body: form,
	});
	expect(answer.status).toBe(200);
	return Number(((await answer.json()) as IDataObject).id);
}

beforeEach(() => emu.clearRequests());

describe("the chat's files, not every binary of the item", () => {
	it('reads the names the chat gave: binaryKey from the Chat Trigger, data0… by place from the chat hub, data0… without a list', () => {
		const binary = {
			data0: file('a.txt', 'A'),
			data1: file('b.txt', 'B'),
			report: file('r.pdf', 'R'),
		};
		// the Chat Trigger's upload, its Binary Property option set to "upload"
		expect(
			chatFileBinaries(
				chatItem('', { upload00: file('a.txt', 'A'), data: file('x.txt', 'X') }, [
					{ fileName: 'a.txt', binaryKey: 'upload00' },
				]),
			),
		).toEqual(['upload00']);
		// the chat hub: `files` without binaryKey, binaries data0, data1 by place
		expect(
			chatFileBinaries(chatItem('', binary, [{ fileName: 'a.txt' }, { fileName: 'b.txt' }])),
		).toEqual(['data0', 'data1']);
		// a node in between dropped the list: the chat's own names only
		expect(chatFileBinaries(chatItem('', binary))).toEqual(['data0', 'data1']);
		// a list entry whose binary is gone is skipped; no files, none
		expect(chatFileBinaries(chatItem('', { data1: file('b.txt', 'B') }, [{}, {}]))).toEqual([
			'data1',
		]);
		expect(chatFileBinaries(chatItem('Hi', {}, []))).toEqual([]);
		expect(chatFileBinaries(undefined)).toEqual([]);
	});

	it("a binary another node added beside the chat's file is not uploaded nor attached", async () => {
		const item = chatItem(
			'What is in my notes?',
			{ data0: file('notes.txt', 'Ada likes tea.'), data: file('invoice.pdf', '%PDF-1.4') },
			[{ fileName: 'notes.txt', mimeType: 'text/plain', binaryKey: 'data0' }],
		);
		const { json, error } = await executeUnderChat(item);
		expect(error).toBeUndefined();
		expect(uploads()).toHaveLength(1);
		expect(uploadedNames()).toEqual(['notes.txt']);
		const [stored] = [...emu.state.files.values()].filter((f) => f.filename === 'notes.txt');
		expect((executes()[0].body as IDataObject).file_ids).toEqual([stored.id]);
		expect(json.files).toEqual([{ id: stored.id, name: 'notes.txt' }]);
	});

	it("a binary of the item that is not the chat's, under a message without files: nothing attached, no files in the output", async () => {
		const item = chatItem('Hello.', { data: file('invoice.pdf', '%PDF-1.4') }, []);
		const { json, error } = await executeUnderChat(item);
		expect(error).toBeUndefined();
		expect(uploads()).toHaveLength(0);
		expect((executes()[0].body as IDataObject).file_ids).toBeUndefined();
		expect(json.files).toBeUndefined();
		expect(String(json.output)).not.toMatch(/attached file/);
	});
});

describe('Execute names the files that went with the run', () => {
	it("the chat's files and a file given by ID: id and name (null for the one given by ID), in the order sent; the agent says it received them", async () => {
		const given = {
			id: await storedFile('glossary.txt', 'otter: a river animal'),
			filename: 'glossary.txt',
		};
		emu.clearRequests();
		const item = chatItem(
			'Compare these.',
			{ data0: file('plan.txt', 'Tea at five.'), data1: file('menu.csv', 'tea,cake', 'text/csv') },
			[
				{ fileName: 'plan.txt', binaryKey: 'data0' },
				{ fileName: 'menu.csv', binaryKey: 'data1' },
			],
		);
		const { json, error } = await executeUnderChat(item, {
			options: { fileIds: String(given.id) },
		});
		expect(error).toBeUndefined();
		const sent = (executes()[0].body as IDataObject).file_ids as number[];
		expect(sent).toHaveLength(3);
		expect(json.files).toEqual([
			{ id: given.id },
			{ id: sent[1], name: 'plan.txt' },
			{ id: sent[2], name: 'menu.csv' },
		]);
		// a file given by ID has no name to say, and says none (no null that reads as a failure)
		expect(Object.keys((json.files as IDataObject[])[0])).toEqual(['id']);
		// the existing keys stay as they were
		expect(json).toMatchObject({ status: 'succeeded', output: expect.any(String) });
		expect(String(json.output)).toContain(
			`I received the attached files ${given.filename}, plan.txt and menu.csv.`,
		);
	});

	it('Attach Input Binaries outside a chat: the named binaries are the files of the output', async () => {
		const { outputs, error } = await runNode({
			parameters: execute({ options: { binaryProperties: 'report' } }),
			items: [{ json: {}, binary: { report: file('report.md', '# Q3') } } as INodeExecutionData],
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		const json = outputs[0][0].json;
		expect(json.files).toEqual([{ id: expect.any(Number), name: 'report.md' }]);
		expect(String(json.output)).toContain('I received the attached file report.md.');
	});
});
