import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import {
	platformHttpError,
	platformMessage,
	platformNetworkError,
} from '../../nodes/AgentPlatform/transport/errors';
import { readableInChat } from '../../nodes/AgentPlatform/transport/chatErrors';
import type { PlatformContext } from '../../nodes/AgentPlatform/transport/types';

const node: INode = {
	id: 'n1',
	name: 'Agent Platform',
	type: 'n8n-nodes-agent-platform.agentPlatform',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const where = { method: 'GET', path: '/agents/12', resource: 'agent 12', itemIndex: 2 };

function everything(error: NodeApiError): string {
	return JSON.stringify({
		message: error.message,
		description: error.description,
		context: error.context,
		json: error,
	});
}

describe("platformMessage: the platform's own words", () => {
	it('joins message, error and per-field messages', () => {
		expect(
			platformMessage({
				error: 'Validation failed',
				messages: { url: ['The url field must start with https://.'] },
			}),
		).toBe('Validation failed — url: The url field must start with https://.');
		expect(platformMessage({ message: 'Memory not found!' })).toBe('Memory not found!');
		expect(platformMessage({ message: 'Memory deletion failed!', error: 'db down' })).toBe(
			'Memory deletion failed! — db down',
		);
	});
	it('ignores HTML pages and empty bodies, keeps short text', () => {
		expect(platformMessage('<html><body>Bad gateway</body></html>')).toBeUndefined();
		expect(platformMessage('')).toBeUndefined();
		expect(platformMessage(undefined)).toBeUndefined();
		expect(platformMessage('upstream timed out')).toBe('upstream timed out');
	});
});

describe('platformHttpError: one plain-words error per status', () => {
	const cases: Array<[number, unknown, RegExp]> = [
		[401, { error: 'Unauthenticated' }, /rejected the API key/],
		[403, { error: 'Invalid authentication' }, /rejected the API key/],
		// the memory collection operations put this one in their own words (test/integration/memoryCollection/memoryCollection.test.ts)
		[
			403,
			{ message: 'Default collection cannot be deleted' },
			/refused this action: Default collection cannot be deleted/,
		],
		[404, { message: 'Not Found' }, /could not find agent 12/],
		[413, '', /too large/],
		[422, undefined, /refused the workspace ID/],
		[
			422,
			{ message: 'The selected workspace is invalid or you do not have access to it.' },
			/refused the workspace ID/,
		],
		[
			422,
			{ message: 'The memory field must not be greater than 32000 characters.' },
			/refused the request: The memory field must not be greater than 32000 characters\./,
		],
		[
			400,
			{
				error: 'Validation failed',
				messages: { url: ['The url field must start with https://.'] },
			},
			/url: The url field must start with https/,
		],
		[429, { error: 'Rate limit exceeded', retry_after: 60 }, /rate limit/],
		[500, { message: 'Memory deletion failed!', error: 'x' }, /problem on its side \(HTTP 500\)/],
		[503, '<html>Service Unavailable</html>', /problem on its side \(HTTP 503\)/],
	];
	it.each(cases)('HTTP %i', (status, body, expected) => {
		const error = platformHttpError(node, { ...where, status, body });
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toMatch(expected);
		expect(error.httpCode).toBe(String(status));
		expect(error.context.itemIndex).toBe(2);
		expect(error.description).toBeTruthy();
	});
	it("puts the platform's words in the description when the message does not carry them", () => {
		const error = platformHttpError(node, {
			...where,
			status: 500,
			body: { message: 'Memory deletion failed!', error: 'db down' },
		});
		expect(error.description).toContain('Memory deletion failed! — db down');
	});
	it('never carries request headers, so never the API key', () => {
		const error = platformHttpError(node, {
			...where,
			status: 403,
			body: { error: 'Invalid authentication' },
			headers: { authorization: 'Bearer sk-secret-123' },
		});
		expect(everything(error)).not.toContain('sk-secret-123');
	});
});

describe('platformNetworkError', () => {
	it('names the timeout in seconds', () => {
		const error = platformNetworkError(node, {
			...where,
			code: 'ECONNABORTED',
			detail: 'timeout of 5000ms exceeded',
			timeoutMs: 5000,
			host: '127.0.0.1:9',
		});
		expect(error.message).toBe('The platform did not answer within 5 seconds');
	});
	it('says which address refused, without n8n swapping the message for its generic text', () => {
		const error = platformNetworkError(node, {
			...where,
			code: 'ECONNREFUSED',
			detail: 'connect ECONNREFUSED 127.0.0.1:9',
			host: '127.0.0.1:9',
		});
		expect(error.message).toBe('Could not connect to the platform at 127.0.0.1:9');
		expect(error.description).toContain('Base URL');
	});
	it('explains a reset connection', () => {
		const error = platformNetworkError(node, {
			...where,
			code: 'ECONNRESET',
			detail: 'socket hang up',
			host: 'h',
		});
		expect(error.message).toBe('The connection to the platform broke before it answered');
	});
});

/** A node's context as n8n gives it, seen only through what chatErrors.ts reads. */
const inWorkflow = (chatTrigger: { disabled?: boolean } | null) =>
	({ getChatTrigger: () => chatTrigger }) as unknown as PlatformContext;
const notFound = () =>
	platformHttpError(node, { ...where, status: 404, body: { message: 'Agent not found' } });

describe('an error says its message once (the editor panel: message as title, description below)', () => {
	it.each([
		['no Chat Trigger in the workflow', inWorkflow(null)],
		['a disabled Chat Trigger', inWorkflow({ disabled: true })],
		['a context without getChatTrigger (an older n8n)', {} as PlatformContext],
	])('%s: the description adds to the message, never repeats it', (_what, ctx) => {
		const error = readableInChat(ctx, notFound());
		expect(error.message).toBe('The platform could not find agent 12');
		expect(error.description).toBe(
			'Check the ID: the record may have been deleted, or it may belong to another workspace. The platform said: Agent not found',
		);
	});

	it.each([
		[401, {}],
		[403, { message: 'Forbidden for this plan' }],
		[404, {}],
		[413, {}],
		[422, { message: 'workspace missing' }],
		[422, { message: 'name: required' }],
		[429, {}],
		[503, {}],
		[418, { message: 'teapot' }],
	])('HTTP %s: the message is not repeated in the description', (status, body) => {
		const error = platformHttpError(node, { ...where, status, body });
		expect(error.description).not.toContain(error.message);
	});
});

describe("readableInChat: the package's words where n8n's chats print an error's description", () => {
	const chat = inWorkflow({ disabled: false });
	it('in a workflow with a Chat Trigger, puts the message before the description, once', () => {
		const error = notFound();
		expect(readableInChat(chat, error)).toBe(error);
		expect(error.description).toBe(
			'The platform could not find agent 12. Check the ID: the record may have been deleted, or it may belong to another workspace. The platform said: Agent not found',
		);
		readableInChat(chat, error);
		expect(error.description?.match(/could not find agent 12/g)).toHaveLength(1);
	});

	it('fills an empty description, keeps a sentence ending, leaves non-errors alone', () => {
		const bare = new NodeOperationError(node, 'The file ID "x" is not a number (item 1)');
		expect(readableInChat(chat, bare).description).toBe('The file ID "x" is not a number (item 1)');
		const asked = new NodeOperationError(node, 'Stopped!', { description: 'Run it again.' });
		expect(readableInChat(chat, asked).description).toBe('Stopped! Run it again.');
		expect(readableInChat(chat, 'not an error')).toBe('not an error');
	});
});
