/**
 * Everything Agent → Execute sends, read from the item's parameters and checked before any
 * request: attachments, messages, answers against the agent's form, the session to continue.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { AgentDefinition } from '../agents/definitions';
import { getAgentDefinition, isChatAgent, MAX_ATTACHMENTS } from '../agents/definitions';
import { checkAnswers, readChatSettings } from '../agents/formAnswers';
import type { PreparedUpload } from '../files/binary';
import { prepareUpload } from '../files/binary';
import {
	EXECUTE_ROLES,
	MESSAGE_FROM_CHAT,
	messageSourceOf,
	readChatMessages,
	requireChatMessage,
	toExecuteMessages,
} from '../agents/messages';
import {
	inItem,
	readFileIds,
	readJsonObject,
	readMemoryCollections,
	readNumericId,
} from '../input/parameters';
import { runBody } from './runBody';

export interface ExecuteRequest {
	agent: AgentDefinition;
	agentId: string;
	body: IDataObject;
	/** Input binaries to upload and attach, already checked. */
	uploads: PreparedUpload[];
	/** The files that go with the run, as Execute's output names them (attachments.ts adds the uploads). */
	files: AttachedFile[];
}

/**
 * A file that went with a run: an uploaded binary's ID and name; one given by File IDs only its ID
 * (the node does not read the file to name it: that would cost a request).
 */
export interface AttachedFile {
	id: number;
	name?: string;
}

function fail(ctx: IExecuteFunctions, itemIndex: number, message: string): never {
	throw new NodeOperationError(ctx.getNode(), inItem(message, itemIndex), { itemIndex });
}

/**
 * The binaries n8n's chat put on the item for the message's files: its `files` list names each,
 * by `binaryKey` (the Chat Trigger's upload, which its Binary Property option may rename)
 * or by place (the chat hub: `data0`, `data1`, …); an item without the list (a node between the
 * trigger and this one dropped it) keeps the chat's `data0`, `data1`, …. Other binaries of the
 * item are not the chat's.
 */
export function chatFileBinaries(item: INodeExecutionData | undefined): string[] {
	const binary = item?.binary ?? {};
	const files = item?.json.files;
	const names = Array.isArray(files)
		? files.map((file, index) => {
				const key = (file as IDataObject | null)?.binaryKey;
				return typeof key === 'string' && key ? key : `data${index}`;
			})
		: Object.keys(binary).filter((name) => /^data\d+$/.test(name));
	return [...new Set(names)].filter((name) => binary[name] !== undefined);
}

/**
 * The input binaries to attach: those Attach Input Binaries names (each must exist); where it is
 * empty, from node version 1.3 under a Chat Trigger (Message Source: the chat), the files of the
 * chat message (chatFileBinaries; a message without one attaches none), unless Attach Chat Files
 * is off.
 */
function attachedBinaries(
	ctx: IExecuteFunctions,
	options: IDataObject,
	itemIndex: number,
): string[] {
	const named = String(options.binaryProperties ?? '')
		.split(',')
		.map((name) => name.trim())
		.filter(Boolean);
	if (named.length) return named;
	const fromChat =
		ctx.getNode().typeVersion >= 1.3 &&
		options.attachChatFiles !== false &&
		messageSourceOf(ctx, itemIndex) === MESSAGE_FROM_CHAT;
	if (!fromChat) return [];
	return chatFileBinaries(ctx.getInputData()[itemIndex]);
}

/**
 * The Answers fields' values, read whole: n8n checks `answers.value` against the list of fields
 * the editor saved with it, which may be another agent's (one typed or picked before), and would
 * refuse the run for that agent's required answers. They are checked against the given agent's
 * own questions instead (checkAnswers).
 */
function mappedAnswers(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const answers = ctx.getNodeParameter('answers', itemIndex, {}) as IDataObject | null;
	const value = answers?.value;
	return value !== null && typeof value === 'object' && !Array.isArray(value)
		? (value as IDataObject)
		: {};
}

/** Reads and checks everything locally; the only request is the agent's definition (once per run). */
export async function readExecuteRequest(
	ctx: IExecuteFunctions,
	itemIndex: number,
): Promise<ExecuteRequest> {
	const agentId = readNumericId(ctx, 'agentId', 'agent', itemIndex);
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const fileIds = readFileIds(ctx, options.fileIds, itemIndex);
	const memoryCollections = readMemoryCollections(ctx, itemIndex);
	const binaryNames = attachedBinaries(ctx, options, itemIndex);
	const attached = fileIds.length + binaryNames.length;
	if (attached > MAX_ATTACHMENTS) {
		fail(
			ctx,
			itemIndex,
			`${attached} files are attached, but the platform takes at most ${MAX_ATTACHMENTS} per run`,
		);
	}
	// Extension and size of every binary are checked before anything is uploaded.
	const uploads: PreparedUpload[] = [];
	for (const name of binaryNames) uploads.push(await prepareUpload(ctx, itemIndex, name));
	const fileNames = uploads.map((upload) => upload.fileName);
	// a chat message that is not there fails only a chat agent's run (below): others are sent none
	const messages = toExecuteMessages(
		ctx,
		readChatMessages(ctx, itemIndex, EXECUTE_ROLES, fileNames, { chatMessageRequired: false }),
		itemIndex,
	);

	const mapped = mappedAnswers(ctx, itemIndex);
	const settings = readChatSettings(ctx, itemIndex);
	const answersJson = readJsonObject(ctx, options.answersJson, 'Answers (JSON)', itemIndex);
	const rootId = String(options.rootId ?? '').trim();
	if (rootId && !/^\d+$/.test(rootId))
		fail(ctx, itemIndex, `The root_id "${rootId}" is not a number`);
	// Only the checks against the agent's own questions need its form, read once per node run.
	const agent = await getAgentDefinition(ctx, agentId, itemIndex);
	// Model, Tools or Temperature left from another agent are not sent to one that does not ask for them.
	const asked = Object.entries(settings).filter(([name]) =>
		agent.questions.some((q) => q.name === name),
	);
	// Answers fields of another agent (typed or picked before this one) are not this agent's: never
	// sent, never required. Answers (JSON) is sent as written.
	const ownFields = Object.entries(mapped).filter(([name]) =>
		agent.questions.some((q) => q.name === name),
	);
	const answers = checkAnswers(
		ctx,
		agent,
		{ ...Object.fromEntries(ownFields), ...Object.fromEntries(asked), ...answersJson },
		itemIndex,
	);
	// Message and History go only to a chat agent (its type, or a form that asks for `messages`); one
	// left on the form from a chat agent is not sent to a text or image agent.
	const takesMessages = isChatAgent(agent);
	if (takesMessages) requireChatMessage(ctx, itemIndex, fileNames);
	const needsMessages = agent.questions.some((q) => q.name === 'messages' && q.required);
	if (needsMessages && messages.length === 0) {
		fail(ctx, itemIndex, `The agent "${agent.title}" is a chat agent: give a Message or a History`);
	}
	const fields: IDataObject = { ...answers };
	if (takesMessages && messages.length) fields.messages = messages as unknown as IDataObject[];
	if (rootId) fields.root_id = Number(rootId);
	return {
		agent,
		agentId,
		body: runBody(fields, { fileIds, memoryCollections }),
		uploads,
		files: fileIds.map((id) => ({ id })),
	};
}
