/**
 * Memory sub-nodes for the in-process runs, built as n8n's own: LangChain's message classes and
 * chat histories (@langchain/core, which n8n-core brings), the window memory's few lines as in
 * @langchain/classic's BufferWindowMemory (loadMemoryVariables: the last k turns;
 * BaseChatMemory.saveContext: addUserMessage, addAIMessage), one memory per `workflowId__sessionId`
 * as Simple Memory keeps it. `stored: true` keeps each session as JSON strings (LangChain's stored
 * message form), as Redis and Postgres Chat Memory do: nothing survives that JSON does not carry.
 * `failWrites` makes saveContext throw while it returns true, as a Redis that went away does.
 * `historyPerRun` builds a new history (with its `sessionId`) over the stored session each run, as
 * Redis and Postgres Chat Memory do.
 * Real n8n's own memory nodes are used end to end (test/e2e/editor-chat-memory.e2e.test.ts,
 * queue.chatMemory.ts, chat-files-memory.e2e.test.ts).
 */
import {
	BaseListChatMessageHistory,
	InMemoryChatMessageHistory,
} from '@langchain/core/chat_history';
import type { BaseMessage } from '@langchain/core/messages';
import {
	mapChatMessagesToStoredMessages,
	mapStoredMessagesToChatMessages,
} from '@langchain/core/messages';
import { getInputValue, getOutputValue } from '@langchain/core/memory';
import type { InputValues, OutputValues } from '@langchain/core/memory';
import type { INodeType, ISupplyDataFunctions, SupplyData } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

/** A session kept as JSON strings, as a Redis list holds it. */
class StoredChatHistory extends BaseListChatMessageHistory {
	lc_namespace = ['test', 'stored'];
	constructor(
		readonly rows: string[],
		readonly sessionId?: string,
	) {
		super();
	}
	async getMessages(): Promise<BaseMessage[]> {
		return mapStoredMessagesToChatMessages(this.rows.map((row) => JSON.parse(row)));
	}
	async addMessage(message: BaseMessage): Promise<void> {
		this.rows.push(JSON.stringify(mapChatMessagesToStoredMessages([message])[0]));
	}
	async clear(): Promise<void> {
		this.rows.length = 0;
	}
}

/** BufferWindowMemory with returnMessages, inputKey `input`, outputKey `output`, memoryKey `chat_history`. */
class WindowMemory {
	memoryKey = 'chat_history';
	constructor(
		readonly chatHistory: BaseListChatMessageHistory,
		private readonly k: number,
		private readonly failWrites?: () => boolean,
	) {}
	async loadMemoryVariables(): Promise<Record<string, BaseMessage[]>> {
		const messages = await this.chatHistory.getMessages();
		return { [this.memoryKey]: messages.slice(-this.k * 2) };
	}
	async saveContext(input: InputValues, output: OutputValues): Promise<void> {
		if (this.failWrites?.()) throw new Error('The client is closed');
		await this.chatHistory.addUserMessage(getInputValue(input, 'input'));
		await this.chatHistory.addAIMessage(getOutputValue(output, 'output'));
	}
}

export interface TestMemory {
	nodeType: INodeType;
	/** A session's messages as the memory holds them (for assertions and for seeding a history). */
	history(sessionId: string, workflowId?: string): BaseListChatMessageHistory;
}

/** A memory sub-node whose session id is the item's `sessionId` (n8n's default, from a Chat Trigger). */
export function testMemory(
	options: {
		k?: number;
		stored?: boolean;
		historyPerRun?: boolean;
		failWrites?: () => boolean;
	} = {},
): TestMemory {
	const sessions = new Map<string, BaseListChatMessageHistory>();
	const history = (sessionId: string, workflowId = 'harness-workflow') => {
		const key = `${workflowId}__${sessionId}`;
		let kept = sessions.get(key);
		if (!kept) {
			const stored = options.stored || options.historyPerRun;
			kept = stored ? new StoredChatHistory([]) : new InMemoryChatMessageHistory();
			sessions.set(key, kept);
		}
		return kept;
	};
	const nodeType: INodeType = {
		description: {
			displayName: 'Test Memory',
			name: 'testMemory',
			group: ['transform'],
			version: 1,
			description: 'A window memory per chat session',
			defaults: { name: 'Test Memory' },
			inputs: [],
			outputs: [NodeConnectionTypes.AiMemory],
			properties: [
				{
					displayName: 'Session ID',
					name: 'sessionId',
					type: 'string',
					default: '={{ $json.sessionId }}',
				},
			],
		},
		async supplyData(this: ISupplyDataFunctions, itemIndex: number): Promise<SupplyData> {
			const sessionId = String(this.getNodeParameter('sessionId', itemIndex));
			const kept = history(sessionId, this.getWorkflow().id);
			const memory = new WindowMemory(
				options.historyPerRun
					? new StoredChatHistory((kept as StoredChatHistory).rows, sessionId)
					: kept,
				options.k ?? 5,
				options.failWrites,
			);
			return { response: memory };
		},
	};
	return { nodeType, history };
}
