import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { throwIfErrorBody } from '../../helpers/runs/agentResponses';
import {
	CHAT_SETTINGS,
	forgetAgentDefinition,
	getAgentDefinition,
	showsStaleDefinition,
} from '../../helpers/agents/definitions';
import { checkAnswers, readChatSettings } from '../../helpers/agents/formAnswers';
import { chatCompletionsPath, firstChoice } from '../../helpers/runs/chatCompletions';
import { readCompletionStream } from '../../helpers/runs/chatStreams';
import { CHAT_COMPLETION_ROLES, readChatMessages } from '../../helpers/agents/messages';
import { inItem, minutesToMs, readNumericId } from '../../helpers/input/parameters';
import { asNodeError } from '../../transport/errors';
import { apiRequest, apiRequestFull } from '../../transport/request';
import {
	agentLocator,
	chatSettingsProperties,
	historyJsonOption,
	historyProperty,
	idleTimeoutProperty,
	timeoutProperty,
} from '../common.descriptions';
import { structuredOutputProperties } from '../structuredOutput.descriptions';
import { jsonCompletionOutput } from './jsonCompletions';
import { ChatSession } from '../../helpers/chatMemory/chatSession';
import { turnInput } from '../../helpers/chatMemory/session';
import type { ChatMessage } from '../../helpers/agents/messages';
import type { JsonRequest } from '../../helpers/output/structuredOutput';
import { readJsonRequest, withJsonInstruction } from '../../helpers/output/structuredOutput';

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
	historyProperty(
		CHAT_COMPLETION_ROLES,
		'Earlier messages of the conversation, oldest first, sent before the Message above',
	),
	...chatSettingsProperties,
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

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const agentId = readNumericId(this, 'agentId', 'agent', itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const stream = this.getNodeParameter('stream', itemIndex, false) as boolean;
	const jsonRequest = stream ? undefined : readJsonRequest(this, itemIndex);
	const given = readChatMessages(this, itemIndex, CHAT_COMPLETION_ROLES);
	// With a Memory: the session's turn (helpers/chatMemory/chatSession.ts); the endpoint keeps no
	// conversation, so the node's instructions, the session's window and the node's messages go
	// every turn, in that order
	const timeoutMs = minutesToMs(options.timeout, 5);
	const session = await ChatSession.open(this, { agentId, itemIndex, timeoutMs });
	try {
		return await complete.call(this, {
			itemIndex,
			agentId,
			options,
			stream,
			jsonRequest,
			given,
			session,
			timeoutMs,
		});
	} finally {
		session?.close();
	}
}

interface CompletionTurn {
	itemIndex: number;
	agentId: string;
	options: IDataObject;
	stream: boolean;
	jsonRequest: JsonRequest | undefined;
	given: ChatMessage[];
	session: ChatSession | undefined;
	timeoutMs: number;
}

async function complete(
	this: IExecuteFunctions,
	{ itemIndex, agentId, options, stream, jsonRequest, given, session, timeoutMs }: CompletionTurn,
): Promise<INodeExecutionData[]> {
	const read = session ? session.historyWith(given) : given;
	const remembered = async (item: IDataObject): Promise<INodeExecutionData[]> => {
		const output = String(item.content ?? '');
		const failed = await session?.save({ input: turnInput(given), output });
		return this.helpers.returnJsonArray(failed ? { ...item, memory_note: failed } : item);
	};
	const messages =
		jsonRequest && read.length ? withJsonInstruction(read, jsonRequest.schema) : read;
	if (!messages.length) {
		throw new NodeOperationError(
			this.getNode(),
			inItem('Give a Message or a History to send', itemIndex),
			{
				itemIndex,
			},
		);
	}
	const settings = readChatSettings(this, itemIndex);
	const agent = await getAgentDefinition(this, agentId, itemIndex);
	// Only the settings are checked here: the endpoint takes its messages from `messages`.
	const checked = checkAnswers(
		this,
		{ ...agent, questions: agent.questions.filter((q) => CHAT_SETTINGS.includes(q.name)) },
		settings,
		itemIndex,
	);

	const request = {
		method: 'POST' as const,
		path: chatCompletionsPath(agentId),
		body: { ...checked, messages, stream },
		timeoutMs,
		resource: `agent ${agentId}`,
		itemIndex,
	};
	let completion: IDataObject = {};
	try {
		if (stream) {
			const { body, streamDeadline } = await apiRequestFull(this, { ...request, stream: true });
			completion = await readCompletionStream(this, body as AsyncIterable<Uint8Array>, {
				itemIndex,
				idleTimeoutMs: ((options.idleTimeout as number) ?? 30) * 1000,
				deadline: streamDeadline,
			});
		} else {
			completion = (await apiRequest(this, request)) as IDataObject;
			// an error with status 200 is still an error
			throwIfErrorBody(this, completion, itemIndex);
		}
	} catch (error) {
		// The agent's settings changed or the agent is gone: the next item reads its definition anew.
		if (showsStaleDefinition(error)) await forgetAgentDefinition(this, agentId);
		throw asNodeError(this.getNode(), error, itemIndex);
	}
	const content = (firstChoice(completion).message as IDataObject | undefined)?.content ?? '';
	if (jsonRequest) {
		const send = async (body: IDataObject) => {
			const answer = (await apiRequest(this, { ...request, body })) as IDataObject;
			throwIfErrorBody(this, answer, itemIndex);
			return answer;
		};
		return await remembered(
			await jsonCompletionOutput(this, {
				request: jsonRequest,
				body: request.body,
				first: completion,
				send,
				itemIndex,
			}),
		);
	}
	return await remembered({ ...completion, content });
}
