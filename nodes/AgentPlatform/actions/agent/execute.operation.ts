import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { AgentDefinition } from '../../helpers/agents';
import {
	checkAnswers,
	readChatMessages,
	readChatSettings,
	EXECUTE_ROLES,
	getAgentDefinition,
	MAX_ATTACHMENTS,
} from '../../helpers/agents';
import {
	isFinished,
	pollAgentResponse,
	simplifyAgentResponse,
	throwIfRunFailed,
} from '../../helpers/agentResponses';
import type { PreparedUpload } from '../../helpers/binary';
import { prepareUpload, sendUpload } from '../../helpers/binary';
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
import { memoryCollectionsProperty, readMemoryCollections } from './memoryCollections';
import { downloadGeneratedFilesProperty } from '../generatedFiles.descriptions';
import { withGeneratedFiles } from '../../helpers/generatedFiles';
import { readJsonRequest } from '../../helpers/structuredOutput';
import { structuredOutputProperties } from '../structuredOutput.descriptions';
import { askForJson, jsonRunOutput } from './jsonRuns';

/** The platform's own limit on a waiting execute call. */
const PLATFORM_WAIT_MS = 100_000;

const properties: INodeProperties[] = [
	agentLocator,
	{
		displayName: 'Response Mode',
		name: 'responseMode',
		type: 'options',
		default: 'wait',
		description: 'How to get the agent\'s answer',
		options: [
			{
				name: 'Wait for Completion',
				value: 'wait',
				description:
					'Wait until the run finishes (the platform waits up to 100 seconds; longer runs are polled until the node\'s timeout)',
			},
			{
				name: 'Start Only',
				value: 'start',
				description: 'Start the run and return its ID at once; fetch the result later with Agent Response → Get',
			},
			{
				name: 'Stream',
				value: 'stream',
				description:
					'Read the answer as it is written (chat agents). In a workflow started by a Chat Trigger or a Webhook in streaming mode, the text is passed on to the caller as it comes.',
			},
		],
	},
	{
		displayName: 'Message',
		name: 'message',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		placeholder: 'e.g. Summarise this report in three bullet points',
		description: 'The user message to send to a chat agent. Leave empty to send only the history below.',
	},
	historyParameter(EXECUTE_ROLES),
	...chatOptionParameters,
	{
		displayName: 'Answers',
		name: 'answers',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		description: 'The agent\'s other questions, answered field by field',
		typeOptions: {
			loadOptionsDependsOn: ['agentId.value'],
			resourceMapper: {
				resourceMapperMethod: 'getAnswerFields',
				mode: 'add',
				fieldWords: { singular: 'answer', plural: 'answers' },
				addAllFields: true,
				multiKeyMatch: false,
				supportAutoMap: false,
			},
		},
	},
	...structuredOutputProperties({ responseMode: ['wait'] }),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		description: 'More settings of the run: answers as JSON, files to attach, the session to continue, the output and how long to wait',
		options: [
			{
				displayName: 'Answers (JSON)',
				name: 'answersJson',
				type: 'json',
				default: '{}',
				placeholder: '{"tone": "formal"}',
				description: 'Answers as one JSON object, e.g. {"style": "formal"}. They take precedence over the fields above.',
			},
			{
				displayName: 'Attach Input Binaries',
				name: 'binaryProperties',
				type: 'string',
				default: '',
				placeholder: 'e.g. data, attachment',
				description: `Binary properties of the input item to upload (streamed) and attach, separated by commas. Together with the File IDs at most ${MAX_ATTACHMENTS} files, each at most 200 MB.`,
			},
			{
				displayName: 'Continue Session (Root ID)',
				name: 'rootId',
				type: 'string',
				default: '',
				placeholder: 'e.g. {{ $json.root_id }}',
				description: 'The root_id of an earlier run, to continue that conversation. Every output carries root_id.',
			},
			{
				displayName: 'File IDs',
				name: 'fileIds',
				type: 'string',
				default: '',
				placeholder: 'e.g. 12, 15',
				description: `IDs of uploaded files to attach, separated by commas (at most ${MAX_ATTACHMENTS})`,
			},
			downloadGeneratedFilesProperty,
			historyJsonOption,
			memoryCollectionsProperty,
			{
				displayName: 'Include Full Response',
				name: 'fullResponse',
				type: 'boolean',
				default: false,
				description: 'Whether to return the platform\'s whole response instead of the simplified item',
			},
			idleTimeoutProperty('In Stream mode, a stream silent for this long is given up and the run is polled instead'),
			timeoutProperty('How long to wait for the run to finish before giving up (it keeps running on the platform)'),
		],
	},
];

export const description = updateDisplayOptions({ show: { resource: ['agent'], operation: ['execute'] } }, properties);

interface ExecuteRequest {
	agent: AgentDefinition;
	agentId: string;
	body: IDataObject;
	/** Input binaries to upload and attach, already checked. */
	uploads: PreparedUpload[];
}

function parseFileIds(ctx: IExecuteFunctions, raw: unknown, itemIndex: number): number[] {
	const parts = (Array.isArray(raw) ? raw : String(raw ?? '').split(','))
		.map((part) => String(part).trim())
		.filter(Boolean);
	return parts.map((part) => {
		if (!/^\d+$/.test(part)) {
			throw new NodeOperationError(ctx.getNode(), `The file ID "${part}" is not a number (item ${itemIndex + 1})`, {
				itemIndex,
			});
		}
		return Number(part);
	});
}

function parseJsonObject(ctx: IExecuteFunctions, raw: unknown, label: string, itemIndex: number): IDataObject {
	if (raw === undefined || raw === null || raw === '') return {};
	let value = raw;
	if (typeof value === 'string') {
		try {
			value = JSON.parse(value);
		} catch {
			throw new NodeOperationError(ctx.getNode(), `${label} is not valid JSON (item ${itemIndex + 1})`, { itemIndex });
		}
	}
	if (typeof value !== 'object' || Array.isArray(value) || value === null) {
		throw new NodeOperationError(ctx.getNode(), `${label} must be a JSON object (item ${itemIndex + 1})`, { itemIndex });
	}
	return value as IDataObject;
}

/** Reads and checks everything locally; the only request is the agent's definition (once per run). */
export async function prepareExecution(this: IExecuteFunctions, itemIndex: number): Promise<ExecuteRequest> {
	const agentId = numericIdParameter(this, 'agentId', 'agent', itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const fileIds = parseFileIds(this, options.fileIds, itemIndex);
	const memoryCollections = readMemoryCollections(this, itemIndex);
	const binaryNames = String(options.binaryProperties ?? '')
		.split(',')
		.map((name) => name.trim())
		.filter(Boolean);
	if (fileIds.length + binaryNames.length > MAX_ATTACHMENTS) {
		throw new NodeOperationError(
			this.getNode(),
			`${fileIds.length + binaryNames.length} files are attached, but the platform takes at most ${MAX_ATTACHMENTS} per run (item ${itemIndex + 1})`,
			{ itemIndex },
		);
	}
	// Extension and size of every binary are checked before anything is uploaded.
	const uploads: PreparedUpload[] = [];
	for (const name of binaryNames) uploads.push(await prepareUpload.call(this, itemIndex, name));
	const messages = readChatMessages(this, itemIndex, EXECUTE_ROLES);

	const mapped = (this.getNodeParameter('answers.value', itemIndex, {}) as IDataObject | null) ?? {};
	const chatAnswers = readChatSettings(this, itemIndex);
	const answersJson = parseJsonObject(this, options.answersJson, 'Answers (JSON)', itemIndex);
	const rootId = String(options.rootId ?? '').trim();
	if (rootId && !/^\d+$/.test(rootId)) {
		throw new NodeOperationError(this.getNode(), `The root_id "${rootId}" is not a number (item ${itemIndex + 1})`, {
			itemIndex,
		});
	}
	// Only the checks against the agent's own questions need its form, read once per node run.
	const agent = await getAgentDefinition.call(this, agentId, itemIndex);
	const answers = checkAnswers(this, agent, { ...mapped, ...chatAnswers, ...answersJson }, itemIndex);
	const asksForMessages = agent.questions.some((q) => q.name === 'messages' && q.required);
	if (asksForMessages && messages.length === 0) {
		throw new NodeOperationError(
			this.getNode(),
			`The agent "${agent.title}" is a chat agent: give a Message or a History (item ${itemIndex + 1})`,
			{ itemIndex },
		);
	}
	// Older and newer revisions of the API read answers from `answers` or from the top level:
	// real clients send both, and both spellings of the wait flag.
	const fields: IDataObject = { ...answers };
	if (messages.length) fields.messages = messages;
	if (rootId) fields.root_id = Number(rootId);
	const body: IDataObject = { answers: fields, ...fields };
	if (fileIds.length) body.file_ids = fileIds;
	if (memoryCollections.length) body.memory_collections = memoryCollections;
	return { agent, agentId, body, uploads };
}

/** Uploads the checked input binaries and adds their IDs to the files to attach. */
async function attachUploads(this: IExecuteFunctions, request: ExecuteRequest): Promise<void> {
	if (!request.uploads.length) return;
	const ids = (request.body.file_ids as number[] | undefined) ?? [];
	for (const upload of request.uploads) {
		const file = await sendUpload.call(this, upload);
		ids.push(Number(file.id));
	}
	request.body.file_ids = ids;
}

function outputOf(ctx: IExecuteFunctions, response: IDataObject, itemIndex: number): INodeExecutionData[] {
	const full = ctx.getNodeParameter('options.fullResponse', itemIndex, false) as boolean;
	return ctx.helpers.returnJsonArray(full ? response : simplifyAgentResponse(response));
}

function firstResponse(ctx: IExecuteFunctions, answer: IDataObject, itemIndex: number): IDataObject {
	const responses = answer.responses;
	if (!Array.isArray(responses) || !responses.length) {
		throw new NodeOperationError(ctx.getNode(), 'The platform accepted the run but returned no response record', {
			itemIndex,
		});
	}
	return responses[0] as IDataObject;
}

async function streamExecution(
	this: IExecuteFunctions,
	request: ExecuteRequest,
	itemIndex: number,
	startedAt: number,
	timeoutMs: number,
): Promise<IDataObject> {
	const idleTimeoutMs = (this.getNodeParameter('options.idleTimeout', itemIndex, 30) as number) * 1000;
	const { body: stream } = await apiRequestFull.call(this, {
		method: 'POST',
		path: `/agents/${request.agentId}/execute`,
		body: { ...request.body, stream: true },
		stream: true,
		timeoutMs,
		resource: `agent ${request.agentId}`,
		itemIndex,
	});
	const forward = forwardStream(this, itemIndex);
	let last: IDataObject | undefined;
	let output = '';
	let finished = false;
	let interrupted: unknown;
	try {
		for await (const event of readServerSentEvents(this, stream as AsyncIterable<Uint8Array>, { idleTimeoutMs })) {
			let data: IDataObject;
			try {
				data = JSON.parse(event.data) as IDataObject;
			} catch {
				continue; // keep-alives and other non-JSON events carry nothing for us
			}
			last = { ...last, ...data };
			if (typeof data.output === 'string' && data.output) {
				output += data.output;
				forward.send(data.output);
			}
			if (isFinished(data)) {
				finished = true;
				break;
			}
		}
	} catch (error) {
		interrupted = error;
	}
	if (interrupted !== undefined) {
		// Only a broken or silent stream of a known run can be recovered, by polling that run.
		const interruption = streamInterruptionOf(interrupted);
		if (!interruption || interruption === 'cancelled') throw interrupted;
	}
	let result: IDataObject;
	if (finished && last) {
		result = { ...last, output };
	} else if (last?.id !== undefined) {
		// The stream broke or went quiet: the run goes on, so its record has the whole output.
		result = await pollAgentResponse.call(this, String(last.id), itemIndex, { startedAt, timeoutMs });
		const full = String(result.output ?? '');
		forward.send(full.startsWith(output) ? full.slice(output.length) : full);
	} else {
		throw new NodeOperationError(
			this.getNode(),
			`The stream ${interrupted === undefined ? 'ended' : 'broke off'} before the platform said which run it was`,
			{
				itemIndex,
				description:
					'The run may have started on the platform, but nothing identifies it, so its output cannot be fetched. ' +
					'Nothing was sent again, so it did not run twice. Run the node again.',
			},
		);
	}
	forward.end();
	return result;
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const mode = this.getNodeParameter('responseMode', itemIndex, 'wait') as string;
	const jsonRequest = mode === 'wait' ? readJsonRequest(this, itemIndex) : undefined;
	const request = await prepareExecution.call(this, itemIndex);
	if (jsonRequest) askForJson(request.body, jsonRequest);
	await attachUploads.call(this, request);
	const timeoutMs = Math.round((this.getNodeParameter('options.timeout', itemIndex, 10) as number) * 60_000);
	const startedAt = Date.now();
	const path = `/agents/${request.agentId}/execute`;
	const resource = `agent ${request.agentId}`;

	if (mode === 'stream') {
		const result = await streamExecution.call(this, request, itemIndex, startedAt, timeoutMs);
		throwIfRunFailed(this, result, itemIndex);
		return await withGeneratedFiles.call(this, outputOf(this, result, itemIndex), result, itemIndex);
	}

	if (mode === 'start') {
		const answer = (await apiRequest.call(this, {
			method: 'POST',
			path,
			body: { ...request.body, wait_execution: false, waitExecution: false },
			resource,
			itemIndex,
		})) as IDataObject;
		return outputOf(this, firstResponse(this, answer, itemIndex), itemIndex);
	}

	const runWaiting = async (body: IDataObject): Promise<IDataObject> => {
		const runStartedAt = Date.now();
		const answer = (await apiRequest.call(this, {
			method: 'POST',
			path,
			body: { ...body, wait_execution: true, waitExecution: true },
			// the platform holds the call for up to 100 s; a little more lets its answer arrive
			timeoutMs: Math.min(timeoutMs, PLATFORM_WAIT_MS) + 20_000,
			resource,
			itemIndex,
		})) as IDataObject;
		let response = firstResponse(this, answer, itemIndex);
		if (!isFinished(response)) {
			response = await pollAgentResponse.call(this, String(response.id), itemIndex, { startedAt: runStartedAt, timeoutMs });
		}
		throwIfRunFailed(this, response, itemIndex);
		return response;
	};
	const response = await runWaiting(request.body);
	if (jsonRequest) {
		const simplify = (run: IDataObject) => outputOf(this, run, itemIndex)[0].json;
		const first = response;
		return this.helpers.returnJsonArray(
			await jsonRunOutput.call(this, { request: jsonRequest, body: request.body, first, run: runWaiting, simplify, itemIndex }),
		);
	}
	return await withGeneratedFiles.call(this, outputOf(this, response, itemIndex), response, itemIndex);
}
