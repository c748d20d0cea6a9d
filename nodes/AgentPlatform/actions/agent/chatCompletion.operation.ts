import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { CHAT_COMPLETION_ROLES, checkAnswers, getAgentDefinition, readChatMessages, readChatSettings } from '../../helpers/agents';
import { numericIdParameter } from '../../helpers/parameters';
import { forwardStream } from '../../helpers/streaming';
import { apiRequest, apiRequestFull } from '../../transport/request';
import { readServerSentEvents, streamInterruptionOf } from '../../transport/sse';
import {
	agentLocator,
	chatOptionParameters,
	historyJsonOption,
	historyParameter,
	idleTimeoutProperty,
	timeoutProperty,
} from '../common.descriptions';
import { structuredOutputProperties } from '../structuredOutput.descriptions';
import { jsonCompletionOutput } from './jsonCompletions';
import { readJsonRequest, withJsonInstruction } from '../../helpers/structuredOutput';

const properties: INodeProperties[] = [
	agentLocator,
	{
		displayName: 'Message',
		name: 'message',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		placeholder: 'e.g. What is the capital of France?',
		description: 'The user message. Leave empty to send only the history below.',
	},
	historyParameter(CHAT_COMPLETION_ROLES),
	...chatOptionParameters,
	{
		displayName: 'Stream',
		name: 'stream',
		type: 'boolean',
		default: false,
		description:
			'Whether to read the answer as it is written. In a workflow started by a Chat Trigger or a Webhook in streaming mode, the text is passed on to the caller as it comes.',
	},
	...structuredOutputProperties({ stream: [false] }),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		description: 'More settings of the request: an earlier history as JSON, and how long to wait',
		options: [
			historyJsonOption,
			idleTimeoutProperty('A stream silent for this long is given up with an error'),
			timeoutProperty('How long to wait for the whole answer', 5),
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['agent'], operation: ['chatCompletion'] } },
	properties,
);

/** Reads an OpenAI-style stream into one chat.completion, passing the text on as it comes. */
async function readCompletionStream(
	this: IExecuteFunctions,
	stream: AsyncIterable<Uint8Array>,
	itemIndex: number,
	idleTimeoutMs: number,
): Promise<IDataObject> {
	const forward = forwardStream(this, itemIndex);
	let content = '';
	let first: IDataObject | undefined;
	let finishReason: unknown = null;
	let usage: unknown;
	for await (const event of readServerSentEvents(this, stream, { idleTimeoutMs })) {
		if (event.data.trim() === '[DONE]') break;
		let chunk: IDataObject;
		try {
			chunk = JSON.parse(event.data) as IDataObject;
		} catch {
			continue;
		}
		first ??= chunk;
		const choice = ((chunk.choices as IDataObject[] | undefined) ?? [])[0] ?? {};
		const piece = (choice.delta as IDataObject | undefined)?.content;
		if (typeof piece === 'string' && piece) {
			content += piece;
			forward.send(piece);
		}
		if (choice.finish_reason) finishReason = choice.finish_reason;
		if (chunk.usage) usage = chunk.usage;
	}
	forward.end();
	return {
		id: first?.id,
		object: 'chat.completion',
		created: first?.created,
		model: first?.model,
		choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: finishReason ?? 'stop' }],
		...(usage ? { usage } : {}),
	} as IDataObject;
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const agentId = numericIdParameter(this, 'agentId', 'agent', itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const stream = this.getNodeParameter('stream', itemIndex, false) as boolean;
	const jsonRequest = stream ? undefined : readJsonRequest(this, itemIndex);
	const read = readChatMessages(this, itemIndex, CHAT_COMPLETION_ROLES);
	const messages = jsonRequest && read.length ? withJsonInstruction(read, jsonRequest.schema) : read;
	if (!messages.length) {
		throw new NodeOperationError(this.getNode(), `Give a Message or a History to send (item ${itemIndex + 1})`, {
			itemIndex,
		});
	}
	const settings = readChatSettings(this, itemIndex);
	const agent = await getAgentDefinition.call(this, agentId, itemIndex);
	// Only the settings are checked here: the endpoint takes its messages from `messages`.
	const checked = checkAnswers(this, { ...agent, questions: agent.questions.filter((q) => q.type === 'select') }, settings, itemIndex);

	const request = {
		method: 'POST' as const,
		path: `/agents/${agentId}/openai/chat/completions`,
		body: { ...checked, messages, stream },
		timeoutMs: Math.round(((options.timeout as number) ?? 5) * 60_000),
		resource: `agent ${agentId}`,
		itemIndex,
	};
	let completion: IDataObject = {};
	if (stream) {
		const { body } = await apiRequestFull.call(this, { ...request, stream: true });
		const idleTimeoutMs = ((options.idleTimeout as number) ?? 30) * 1000;
		let interrupted: unknown;
		try {
			completion = await readCompletionStream.call(this, body as AsyncIterable<Uint8Array>, itemIndex, idleTimeoutMs);
		} catch (error) {
			interrupted = error;
		}
		const interruption = streamInterruptionOf(interrupted);
		if (interruption === 'broken' || interruption === 'idle') {
			// This endpoint leaves no record to fetch the rest from (Agent → Execute's stream does).
			throw new NodeOperationError(this.getNode(), `The streamed answer ${interruption === 'idle' ? 'went silent' : 'broke off'} before its end`, {
				itemIndex,
				description:
					`${(interrupted as Error).message}. The chat-completions endpoint leaves nothing to fetch the rest from, and nothing was sent again, so the agent did not run twice. ` +
					'Run the node again, or use Agent → Execute with the response mode Stream, which recovers the whole output.',
			});
		}
		if (interrupted !== undefined) throw interrupted;
	} else {
		completion = (await apiRequest.call(this, request)) as IDataObject;
	}
	const choice = ((completion.choices as IDataObject[] | undefined) ?? [])[0];
	const content = (choice?.message as IDataObject | undefined)?.content ?? '';
	if (jsonRequest) {
		const send = async (body: IDataObject) => (await apiRequest.call(this, { ...request, body })) as IDataObject;
		return this.helpers.returnJsonArray(
			await jsonCompletionOutput.call(this, { request: jsonRequest, body: request.body, first: completion, send, itemIndex }),
		);
	}
	return this.helpers.returnJsonArray({ ...completion, content });
}
