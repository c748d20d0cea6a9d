/**
 * The bad-input table (docs/bad-input.md), row by row: every parameter the nodes check before sending, with
 * the message it gives, in-process n8n (test/infra/n8n.ts) against the emulator. A row checked
 * locally sends nothing at all (the emulator's request record stays empty); a row checked against
 * the agent's own form (its questions and options) sends at most `GET /agents/{id}` (the form is
 * kept in the process after its first read), never the run.
 * The last test checks that the table lists each row tested here.
 */
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Container } from '@n8n/di';
import { BinaryDataService } from 'n8n-core';
import type { IBinaryData, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { MAX_UPLOAD_BYTES } from '../../../nodes/AgentPlatform/helpers/files/binary';
import type { PlatformEmulator } from '../../../dev/emulator';
import type { HarnessCredentials } from '../../infra/n8n';
import { binaryItem, byId, credentialsFor, runNode, triggerLifecycle } from '../../infra/n8n';
import { useEmulator } from '../../infra/useEmulator';

const CHAT = 1;
const TEXT = 3; // questions: topic (text, required), tone (select: formal, casual, friendly), max_words (number), keywords (array)

let emu: PlatformEmulator;
useEmulator({ timeScale: 100, quiet: true }, (started) => (emu = started));

/** An expression: n8n itself refuses a literal that fails a picker's own regex before the node runs. */
const expr = (text: string) => `={{ ${JSON.stringify(text)} }}`;

const chatSettings = () => emu.firstOptions(CHAT);
const execute = (extra: INodeParameters, agentId = TEXT): INodeParameters => ({
	resource: 'agent',
	operation: 'execute',
	agentId: byId(String(agentId)),
	...(agentId === CHAT ? { message: 'Hello', ...chatSettings() } : {}),
	...extra,
});
const textAnswers = (value: Record<string, unknown>) =>
	({ answers: { mappingMode: 'defineBelow', value } }) as INodeParameters;
const completion = (extra: INodeParameters): INodeParameters => ({
	resource: 'agent',
	operation: 'chatCompletion',
	agentId: byId(String(CHAT)),
	message: 'Hello',
	...chatSettings(),
	...extra,
});
const upload = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'file',
	operation: 'upload',
	binaryPropertyName: 'data',
	...extra,
});

interface Case {
	/** What is wrong, in words (the test's name). */
	bad: string;
	parameters: () => INodeParameters;
	items?: () => INodeExecutionData[] | Promise<INodeExecutionData[]>;
	credentials?: () => HarnessCredentials;
	message: string;
	/** What reaches the platform: nothing, or only the agent's form (`GET /agents/{id}`). */
	sends?: 'nothing' | 'the agent form';
}

interface Row {
	/** The README row's first column. */
	parameter: string;
	cases: Case[];
}

/** A 200 MB + 1 byte sparse file in n8n's binary store (filesystem mode), as n8n would hold it. */
async function oversizeItem(): Promise<INodeExecutionData[]> {
	const folder = mkdtempSync(path.join(tmpdir(), 'bad-input-'));
	const source = path.join(folder, 'huge.mp4');
	writeFileSync(source, '');
	truncateSync(source, MAX_UPLOAD_BYTES + 1);
	try {
		const binary = await Container.get(BinaryDataService).copyBinaryFile(
			{ type: 'execution', workflowId: 'harness-workflow', executionId: 'bad-input' },
			{ data: '', mimeType: 'video/mp4', fileName: 'huge.mp4' } as IBinaryData,
			source,
		);
		return [{ json: {}, binary: { data: binary } }];
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}

const ROWS: Row[] = [
	{
		parameter: 'Base URL (credential)',
		cases: [
			{
				bad: 'not http(s)',
				parameters: () => ({ resource: 'agent', operation: 'get', agentId: byId('1') }),
				credentials: () => ({
					...credentialsFor(emu),
					baseUrl: 'ftp://agents.example.test/api/v1',
				}),
				message:
					'The Base URL in the "Agent Platform API" credential must start with http:// or https://',
			},
			{
				bad: 'no host',
				parameters: () => ({ resource: 'agent', operation: 'get', agentId: byId('1') }),
				credentials: () => ({ ...credentialsFor(emu), baseUrl: 'https://' }),
				message:
					'The Base URL in the "Agent Platform API" credential must start with http:// or https://',
			},
		],
	},
	{
		parameter: 'Agent',
		cases: [
			{
				bad: 'not a number',
				parameters: () => ({ resource: 'agent', operation: 'get', agentId: byId(expr('abc')) }),
				message: 'The agent "abc" is not a valid ID (item 1)',
			},
			{
				bad: 'empty',
				parameters: () => ({ resource: 'agentFile', operation: 'getAll', agentId: byId(expr('')) }),
				message: 'The agent is empty (item 1)',
			},
		],
	},
	{
		parameter: 'Collection',
		cases: [
			{
				bad: 'not a number',
				parameters: () => ({
					resource: 'memory',
					operation: 'create',
					memory: 'x',
					collectionId: byId(expr('customers')),
				}),
				message: 'The collection "customers" is not a valid ID (item 1)',
			},
			{
				bad: 'a name given as the ID',
				parameters: () => ({
					resource: 'memoryCollection',
					operation: 'delete',
					collectionId: byId(expr('default')),
				}),
				message: 'The collection "default" is not a valid ID (item 1)',
			},
		],
	},
	{
		parameter: 'Memory ID',
		cases: [
			{
				bad: 'not a number',
				parameters: () => ({ resource: 'memory', operation: 'delete', memoryId: '12abc' }),
				message: 'The memory "12abc" is not a valid ID (item 1)',
			},
			{
				bad: 'empty',
				parameters: () => ({
					resource: 'memory',
					operation: 'update',
					memoryId: expr(''),
					memory: 'x',
				}),
				message: 'The memory is empty (item 1)',
			},
		],
	},
	{
		parameter: 'Webhook ID',
		cases: [
			{
				bad: 'a URL given as the ID',
				parameters: () => ({
					resource: 'webhook',
					operation: 'delete',
					webhookId: 'https://example.com/hook',
				}),
				message: 'The webhook "https://example.com/hook" is not a valid ID (item 1)',
			},
		],
	},
	{
		parameter: 'File ID',
		cases: [
			{
				bad: 'a file name given as the ID',
				parameters: () => ({
					resource: 'file',
					operation: 'get',
					fileId: byId(expr('report.pdf')),
				}),
				message: 'The file "report.pdf" is not a valid ID (item 1)',
			},
			{
				bad: 'empty, on Agent File → Unlink',
				parameters: () => ({
					resource: 'agentFile',
					operation: 'unlink',
					agentId: byId('1'),
					fileId: byId(expr('')),
				}),
				message: 'The file is empty (item 1)',
			},
		],
	},
	{
		parameter: 'Files (Agent File → Link)',
		cases: [
			{
				bad: 'the second file not a number',
				parameters: () => ({
					resource: 'agentFile',
					operation: 'link',
					agentId: byId('1'),
					files: { values: [{ fileId: byId('7') }, { fileId: byId(expr('notes.txt')) }] },
				}),
				message: 'The file number 2 "notes.txt" is not a valid ID (item 1)',
			},
			{
				bad: 'no file',
				parameters: () => ({
					resource: 'agentFile',
					operation: 'link',
					agentId: byId('1'),
					files: {},
				}),
				message: 'No file to link: add at least one file (item 1)',
			},
		],
	},
	{
		parameter: 'Response ID (Agent Response → Get)',
		cases: [
			{
				bad: 'empty',
				parameters: () => ({ resource: 'agentResponse', operation: 'get', responseId: '  ' }),
				message: 'The Response ID is empty (item 1)',
			},
		],
	},
	{
		parameter: 'Memory (Create, Update)',
		cases: [
			{
				bad: 'empty',
				parameters: () => ({ resource: 'memory', operation: 'create', memory: '   ' }),
				message: 'The Memory is empty (item 1)',
			},
			{
				bad: '32001 characters (emoji count as one each)',
				parameters: () => ({
					resource: 'memory',
					operation: 'update',
					memoryId: '5',
					memory: '😀'.repeat(32_001),
				}),
				message: 'The Memory is 32001 characters long; the platform stores at most 32000 (item 1)',
			},
		],
	},
	{
		parameter: 'Name, New Name (Memory Collection)',
		cases: [
			{
				bad: 'empty',
				parameters: () => ({ resource: 'memoryCollection', operation: 'create', name: ' ' }),
				message: 'The collection name is empty (item 1)',
			},
			{
				bad: 'empty, on Rename',
				parameters: () => ({
					resource: 'memoryCollection',
					operation: 'rename',
					collectionId: byId('1'),
					name: expr(''),
				}),
				message: 'The collection name is empty (item 1)',
			},
		],
	},
	{
		parameter: 'URL (Webhook → Create)',
		cases: [
			['', 'The webhook URL is empty (item 1)'],
			['not a url', 'The webhook URL "not a url" is not a valid URL (item 1)'],
			[
				'ftp://example.com/hook',
				'The webhook URL "ftp://example.com/hook" must start with http:// or https:// (item 1)',
			],
		].map(([url, message]) => ({
			bad: url ? `"${url}"` : 'empty',
			// (an expression: n8n refuses a literally empty required parameter before the node runs)
			parameters: () => ({
				resource: 'webhook',
				operation: 'create',
				agentId: byId('4'),
				url: expr(url),
				method: 'POST',
				status: 'active',
			}),
			message,
		})),
	},
	{
		parameter: 'Input Binary Field (File → Upload)',
		cases: [
			{
				bad: 'the item has no such binary property',
				parameters: () => upload({ binaryPropertyName: 'file' }),
				items: () => [binaryItem(Buffer.from('x'), { fileName: 'x.txt' })],
				message: 'The item has no binary property "file" (item 1)',
			},
			{
				bad: 'empty',
				parameters: () => upload({ binaryPropertyName: ' ' }),
				items: () => [binaryItem(Buffer.from('x'), { fileName: 'x.txt' })],
				message: 'The Input Binary Field is empty (item 1)',
			},
		],
	},
	{
		parameter: 'the file to upload (File → Upload, Agent → Execute)',
		cases: [
			{
				bad: 'an extension the platform refuses',
				parameters: () => upload(),
				items: () => [binaryItem(Buffer.from('MZ'), { fileName: 'setup.exe' })],
				message:
					'The platform does not accept .exe files: "setup.exe" cannot be uploaded (binary property "data", item 1)',
			},
			{
				bad: 'no extension',
				parameters: () => upload(),
				items: () => [binaryItem(Buffer.from('all:'), { fileName: 'Makefile' })],
				message:
					'The file name "Makefile" has no extension, so the platform would refuse it (binary property "data", item 1)',
			},
			{
				bad: "over 200 MB, from its size in n8n's binary store",
				parameters: () => upload(),
				items: oversizeItem,
				message:
					'The file "huge.mp4" is 200.1 MB: the platform accepts at most 200 MB per file (binary property "data", item 1)',
			},
			{
				bad: 'an input binary of Agent → Execute with a refused extension',
				parameters: () =>
					execute({
						...textAnswers({ topic: 't', tone: 'formal' }),
						options: { binaryProperties: 'data' },
					}),
				items: () => [binaryItem(Buffer.from('MZ'), { fileName: 'tool.exe' })],
				message:
					'The platform does not accept .exe files: "tool.exe" cannot be uploaded (binary property "data", item 1)',
			},
		],
	},
	{
		parameter: 'File IDs, Attach Input Binaries (Agent → Execute)',
		cases: [
			{
				bad: 'a file ID that is not a number',
				parameters: () => execute({ options: { fileIds: '12, x7' } }),
				message: 'The file ID "x7" is not a number (item 1)',
			},
			{
				bad: 'more than 5 files, IDs and binaries together',
				parameters: () =>
					execute({ options: { fileIds: '1,2,3,4', binaryProperties: 'data, other' } }),
				items: () => [binaryItem(Buffer.from('x'), { fileName: 'a.txt' })],
				message: '6 files are attached, but the platform takes at most 5 per run (item 1)',
			},
		],
	},
	{
		parameter: 'History, History (JSON) (Agent → Execute, Chat Completion)',
		cases: [
			{
				bad: 'not JSON',
				parameters: () => execute({ options: { historyJson: '[{"role":' } }, CHAT),
				message: 'History (JSON) is not valid JSON (item 1)',
			},
			{
				bad: 'not an array',
				parameters: () => execute({ options: { historyJson: '{"role":"user"}' } }, CHAT),
				message: 'History (JSON) must be an array of messages (item 1)',
			},
			{
				bad: 'an unknown role',
				parameters: () =>
					execute({ options: { historyJson: '[{"role":"robot","content":"beep"}]' } }, CHAT),
				message: 'Message 1 of History (JSON) has the role "robot" (item 1)',
			},
			{
				bad: 'a message without text',
				parameters: () =>
					execute(
						{
							history: { messages: [{ role: 'user', content: 'hi' }] },
							options: { historyJson: '[{"role":"user","content":7}]' },
						},
						CHAT,
					),
				message: 'Message 1 of History (JSON) has no text content (item 1)',
			},
			{
				bad: 'the developer role, on Chat Completion (that endpoint does not take it)',
				parameters: () =>
					completion({ options: { historyJson: '[{"role":"developer","content":"x"}]' } }),
				message: 'Message 1 of History (JSON) has the role "developer" (item 1)',
			},
		],
	},
	{
		parameter: 'Message (Chat Completion)',
		cases: [
			{
				bad: 'no message and no history',
				parameters: () => completion({ message: '' }),
				message: 'Give a Message or a History to send (item 1)',
			},
		],
	},
	{
		parameter: "Answers, Answers (JSON), Model, Tools, Temperature (against the agent's form)",
		cases: [
			{
				bad: 'a required question unanswered',
				parameters: () => execute(textAnswers({ tone: 'formal' })),
				message: 'The agent "Text Summarizer" needs an answer to "Topic" (topic) (item 1)',
				sends: 'the agent form',
			},
			{
				bad: 'a select answer the agent does not offer',
				parameters: () => execute(textAnswers({ topic: 't', tone: 'angry' })),
				message:
					'"angry" is not one of the options of "Tone" (tone) for the agent "Text Summarizer" (item 1)',
				sends: 'the agent form',
			},
			{
				bad: 'a number question answered with text',
				parameters: () => execute(textAnswers({ topic: 't', tone: 'formal', max_words: 'many' })),
				message: 'The answer to "Max Words" (max_words) must be a number, not "many" (item 1)',
				sends: 'the agent form',
			},
			{
				bad: 'an array question answered with a non-array',
				parameters: () =>
					execute({
						...textAnswers({ topic: 't', tone: 'formal' }),
						options: { answersJson: '{"keywords": "river"}' },
					}),
				message: 'The answer to "Keywords" (keywords) must be a JSON array (item 1)',
				sends: 'the agent form',
			},
			{
				bad: 'Answers (JSON) not JSON',
				parameters: () =>
					execute({
						...textAnswers({ topic: 't', tone: 'formal' }),
						options: { answersJson: '{topic:' },
					}),
				message: 'Answers (JSON) is not valid JSON (item 1)',
			},
			{
				bad: 'Answers (JSON) not an object',
				parameters: () =>
					execute({
						...textAnswers({ topic: 't', tone: 'formal' }),
						options: { answersJson: '[1]' },
					}),
				message: 'Answers (JSON) must be a JSON object (item 1)',
			},
			{
				bad: 'a model the agent does not offer',
				parameters: () => completion({ model: 'not-a-model' }),
				message:
					'"not-a-model" is not one of the options of "Model" (model) for the agent "Chat Assistant" (item 1)',
				sends: 'the agent form',
			},
			{
				bad: 'a chat agent without a message',
				parameters: () => execute({ message: '' }, CHAT),
				message: 'The agent "Chat Assistant" is a chat agent: give a Message or a History (item 1)',
				sends: 'the agent form',
			},
		],
	},
	{
		parameter: 'Continue Session (Root ID) (Agent → Execute)',
		cases: [
			{
				bad: 'not a number',
				parameters: () => execute({ options: { rootId: 'abc' } }, CHAT),
				message: 'The root_id "abc" is not a number (item 1)',
			},
		],
	},
];

describe.each(ROWS)('$parameter', ({ cases }) => {
	it.each(cases.map((c) => [c.bad, c] as const))('%s', async (_bad, c) => {
		const { error } = await runNode({
			parameters: c.parameters(),
			items: c.items ? await c.items() : undefined,
			credentials: c.credentials?.() ?? credentialsFor(emu),
		});
		expect(error?.message).toBe(c.message);
		const sent = emu.requests.map((r) => `${r.method} ${r.path}`);
		if ((c.sends ?? 'nothing') === 'nothing') expect(sent).toEqual([]);
		else {
			expect(sent.length).toBeLessThanOrEqual(1);
			for (const request of sent) expect(request).toMatch(/^GET \/agents\/\d+$/);
		}
	});
});

describe('Agent (Agent Platform Trigger)', () => {
	it.each([
		['not a number', expr('abc'), 'The agent "abc" is not a valid ID'],
		['empty', expr(''), 'The agent is empty'],
	])('%s: activation fails before asking the platform anything', async (_bad, value, message) => {
		const trigger = await triggerLifecycle({
			parameters: { agentId: byId(value), options: {} },
			credentials: credentialsFor(emu),
		});
		await expect(trigger.activate()).rejects.toThrow(message);
		expect(emu.requests).toEqual([]);
	});
});

describe('docs/bad-input.md', () => {
	it('lists each row tested here in its table', () => {
		const table = readFileSync(
			path.join(__dirname, '..', '..', '..', 'docs', 'bad-input.md'),
			'utf8',
		);
		const firstColumns = table
			.split('\n')
			.filter((line) => line.startsWith('| '))
			.map((line) => line.split(' | ')[0].slice(2).trim());
		for (const parameter of [
			...ROWS.map((row) => row.parameter),
			'Agent (Agent Platform Trigger)',
		]) {
			expect(firstColumns).toContain(parameter);
		}
	});
});
