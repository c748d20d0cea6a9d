/** Rows of the bad-input table (docs/bad-input.md): the credential and the records named by ID (agents, collections, memories, webhooks, files, responses), memory text, collection names, webhook URLs. */
import { byId, credentialsFor } from '../../infra/n8n/credentials';
import { emu, expr, Row } from './bad-input.shared';

export const BAD_INPUT_RECORDS: Row[] = [
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
];
