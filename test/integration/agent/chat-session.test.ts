/**
 * The rules of one chat session (helpers/chatMemory/chatSession.ts), as both chat operations keep
 * them, through n8n's real execution machinery, LangChain's message classes (chatMemory.ts) and the
 * emulator: instructions and history only when a conversation starts, one order, ids as numbers,
 * turns of one session one after the other, a failed write that keeps the run, a Memory left unused
 * said in a hint, the marks out of the log view; and the files of a chat message attached.
 */
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import type { IDataObject } from 'n8n-workflow';

import { SESSION_MARK } from '../../../nodes/AgentPlatform/helpers/chatMemory/session';
import { nodeInputs } from '../../../nodes/AgentPlatform/helpers/chatMemory/nodeInputs';
import { byId, credentialsFor } from '../../infra/n8n/credentials';
import type { TestMemory } from '../../infra/n8n/chatMemory';
import { testMemory } from '../../infra/n8n/chatMemory';
import { binaryItem, runNode } from '../../infra/n8n/runNode';
import { CHAT, chatSettings, emu, TEXT } from './execute.shared';

const executes = () =>
	emu.requests.filter((r) => r.method === 'POST' && /\/agents\/\d+\/execute$/.test(r.path));
const completions = () =>
	emu.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/chat/completions'));
const uploads = () => emu.requests.filter((r) => r.method === 'POST' && r.path === '/files');
const bodyOf = (request = executes().at(-1)) => request?.body as IDataObject;
const INSTRUCTIONS = 'Answer in one short sentence.';

interface Turn {
	operation?: string;
	extra?: IDataObject;
	typeVersion?: number;
	item?: { json?: IDataObject; binary?: IDataObject };
}

/** One chat message as a Chat Trigger's item brings it, run by a node whose Memory is `memory`. */
async function turn(
	memory: TestMemory | undefined,
	sessionId: string,
	chatInput: string,
	options: Turn = {},
) {
	const operation = options.operation ?? 'execute';
	const json = { sessionId, action: 'sendMessage', chatInput, ...options.item?.json };
	const { outputs, error, run } = await runNode({
		typeVersion: options.typeVersion ?? 1.3,
		parameters: {
			resource: 'agent',
			operation,
			agentId: byId(String(CHAT)),
			...chatSettings(CHAT),
			...(operation === 'chatCompletion' ? { message: chatInput } : {}),
			...options.extra,
		},
		items: [{ json, ...(options.item?.binary ? { binary: options.item.binary } : {}) } as never],
		credentials: credentialsFor(emu),
		memory: memory && { nodeType: memory.nodeType },
	});
	const hints = (run.data.resultData.runData['Agent Platform']?.[0]?.hints ?? []).map(
		(hint) => hint.message,
	);
	return { json: outputs[0]?.[0]?.json ?? {}, error, hints };
}

const withInstructions = {
	history: { messages: [{ role: 'system', content: INSTRUCTIONS }] },
};

beforeEach(() => emu.clearRequests());

describe('a conversation the platform keeps (Execute)', () => {
	it('sends the instructions only when it starts: the second request carries only the new message and the root_id', async () => {
		const memory = testMemory();
		const first = await turn(memory, 'rules', 'My name is Ada.', { extra: withInstructions });
		expect(bodyOf().messages).toEqual([
			{ role: 'developer', content: INSTRUCTIONS },
			{ role: 'user', content: 'My name is Ada.' },
		]);
		await turn(memory, 'rules', 'What is my name?', { extra: withInstructions });
		expect(executes()).toHaveLength(2);
		expect(bodyOf().root_id).toBe(first.json.root_id);
		expect(bodyOf().messages).toEqual([{ role: 'user', content: 'What is my name?' }]);
	});

	it('a history from elsewhere goes after the instructions, before the message', async () => {
		const memory = testMemory();
		await memory
			.history('ordered')
			.addMessages([new HumanMessage('I like tea.'), new AIMessage('Noted.')]);
		await turn(memory, 'ordered', 'What do I like?', { extra: withInstructions });
		expect((bodyOf().messages as IDataObject[]).map((m) => m.role)).toEqual([
			'developer',
			'user',
			'assistant',
			'user',
		]);
	});

	it('two messages of one session at once: one conversation, the second continuing the first', async () => {
		const memory = testMemory();
		const [a, b] = await Promise.all([
			turn(memory, 'at-once', 'First message.'),
			turn(memory, 'at-once', 'Second message.'),
		]);
		expect(a.error ?? b.error).toBeUndefined();
		const [one, two] = executes();
		expect(bodyOf(one).root_id).toBeUndefined();
		expect(bodyOf(two).root_id).toBe(a.json.root_id);
		expect(b.json.root_id).toBe(a.json.root_id);
		expect(await memory.history('at-once').getMessages()).toHaveLength(4);
	});

	it('ids compared as numbers: a mark kept with its numbers as text still continues', async () => {
		const memory = testMemory({ stored: true });
		const first = await turn(memory, 'text-ids', 'Hello.');
		await memory.history('text-ids').addMessages([
			new HumanMessage({
				content: 'Again.',
				response_metadata: { [SESSION_MARK]: { agent_id: String(CHAT) } },
			}),
			new AIMessage({
				content: 'Yes.',
				response_metadata: {
					[SESSION_MARK]: { agent_id: String(CHAT), root_id: String(first.json.root_id) },
				},
			}),
		]);
		await turn(memory, 'text-ids', 'Third.');
		expect(bodyOf().root_id).toBe(first.json.root_id);
		expect(bodyOf().messages).toEqual([{ role: 'user', content: 'Third.' }]);
	});

	it("the marks are written as numbers in response_metadata, out of the logs' view; older marks still read", async () => {
		const memory = testMemory();
		const first = await turn(memory, 'marks', 'Hi.');
		const [asked, answered] = await memory.history('marks').getMessages();
		expect(asked.additional_kwargs).toEqual({});
		expect(answered.additional_kwargs).toEqual({});
		expect((answered.response_metadata as Record<string, unknown>)[SESSION_MARK]).toEqual({
			agent_id: CHAT,
			root_id: first.json.root_id,
		});
		// a turn an earlier version wrote, marked in additional_kwargs
		const old = testMemory();
		await old.history('old').addMessages([
			new HumanMessage('Before.'),
			new AIMessage({
				content: 'Answer.',
				additional_kwargs: { [SESSION_MARK]: { agent_id: CHAT, root_id: first.json.root_id } },
			}),
		]);
		await turn(old, 'old', 'After.');
		expect(bodyOf().root_id).toBe(first.json.root_id);
	});
});

describe('a memory write that fails', () => {
	it('keeps the run and its output, with a note and a hint, and does not fail the item', async () => {
		let broken = false;
		const memory = testMemory({ failWrites: () => broken });
		await turn(memory, 'redis-gone', 'Remember this.');
		broken = true;
		emu.clearRequests();
		const kept = await turn(memory, 'redis-gone', 'And this?');
		expect(kept.error).toBeUndefined();
		expect(executes()).toHaveLength(1);
		expect(kept.json.output).toEqual(expect.stringContaining('Echo from'));
		expect(kept.json.memory_note).toMatch(/answer was kept.*could not store.*The client is closed/);
		expect(kept.hints).toEqual([expect.stringMatching(/Memory could not store this turn/)]);

		const completion = await turn(memory, 'redis-gone', 'Once more.', {
			operation: 'chatCompletion',
		});
		expect(completion.error).toBeUndefined();
		expect(completions()).toHaveLength(1);
		expect(completion.json.memory_note).toMatch(/could not store/);
	});
});

describe('Chat Completion with a Memory', () => {
	it('keeps the same order: its own instructions first, then the window, then the message', async () => {
		const memory = testMemory();
		await turn(memory, 'cc-order', 'One.', {
			operation: 'chatCompletion',
			extra: withInstructions,
		});
		await turn(memory, 'cc-order', 'Two.', {
			operation: 'chatCompletion',
			extra: withInstructions,
		});
		const sent = (completions()[1].body as IDataObject).messages as IDataObject[];
		expect(sent.map((m) => [m.role, m.content])).toEqual([
			['system', INSTRUCTIONS],
			['user', 'One.'],
			['assistant', expect.stringContaining('Echo from')],
			['user', 'Two.'],
		]);
	});
});

describe('a Memory that goes unused says why', () => {
	it('Start Only, and an agent that is not a chat agent', async () => {
		const memory = testMemory();
		const started = await turn(memory, 'unused', 'Hello.', { extra: { responseMode: 'start' } });
		expect(started.error).toBeUndefined();
		expect(started.hints).toEqual([expect.stringMatching(/Memory was not used: .*Start Only/)]);
		const text = await turn(memory, 'unused', 'Hello.', {
			extra: {
				agentId: byId(String(TEXT)),
				answers: { mappingMode: 'defineBelow', value: { topic: 'Tea', tone: 'formal' } },
			},
		});
		expect(text.hints).toEqual([expect.stringMatching(/Memory was not used: .*not a chat agent/)]);
		expect(await memory.history('unused').getMessages()).toHaveLength(0);
	});
});

describe('files of a chat message', () => {
	const withFile = (name: string, text: string) =>
		binaryItem(Buffer.from(text), { fileName: name, mimeType: 'text/plain', property: 'data0' })
			.binary as IDataObject;

	it('are uploaded, processed and attached; the next message without one is an ordinary message', async () => {
		const memory = testMemory();
		const first = await turn(memory, 'files', 'What is in the file?', {
			item: { binary: withFile('notes.txt', 'Ada likes tea.') },
		});
		expect(first.error).toBeUndefined();
		expect(uploads()).toHaveLength(1);
		expect(bodyOf().file_ids).toEqual([expect.any(Number)]);

		emu.clearRequests();
		const second = await turn(memory, 'files', 'Thanks.');
		expect(second.error).toBeUndefined();
		expect(uploads()).toHaveLength(0);
		expect(bodyOf().file_ids).toBeUndefined();
		expect(bodyOf().root_id).toBe(first.json.root_id);
	});

	it('node version 1.2 and Attach Chat Files off attach none; Attach Input Binaries keeps its meaning', async () => {
		const binary = withFile('notes.txt', 'Ada likes tea.');
		await turn(undefined, 'v12', 'Hi.', { typeVersion: 1.2, item: { binary } });
		await turn(undefined, 'off', 'Hi.', {
			item: { binary },
			extra: { options: { attachChatFiles: false } },
		});
		expect(uploads()).toHaveLength(0);
		expect(executes().map((r) => bodyOf(r).file_ids)).toEqual([undefined, undefined]);
		const named = await turn(undefined, 'named', 'Hi.', {
			extra: { options: { binaryProperties: 'data0' } },
		});
		expect(named.error?.message).toMatch(/no binary property "data0"/);
	});

	it('a message with files and no text: the files are attached, the agent gets a line naming them', async () => {
		const memory = testMemory();
		const binary = {
			...withFile('notes.txt', 'Ada likes tea.'),
			data1: withFile('plan.txt', 'Tea at five.').data0,
		};
		const sent = await turn(memory, 'only-files', '', { item: { binary } });
		expect(sent.error).toBeUndefined();
		expect(sent.json.status).toBe('succeeded');
		expect(uploads()).toHaveLength(2);
		expect(bodyOf().file_ids).toEqual([expect.any(Number), expect.any(Number)]);
		expect(bodyOf().messages).toEqual([
			{ role: 'user', content: 'Attached files: notes.txt, plan.txt' },
		]);
		// the next turn continues the conversation as usual
		const next = await turn(memory, 'only-files', '  What do they say?  ');
		expect(next.error).toBeUndefined();
		expect(bodyOf().root_id).toBe(sent.json.root_id);
	});

	it('with no file attached (node version 1.2, or no file at all), an empty message says what to do', async () => {
		const binary = withFile('notes.txt', 'Ada likes tea.');
		const before = emu.requests.length;
		const old = await turn(undefined, 'v12-only-file', '', { typeVersion: 1.2, item: { binary } });
		expect(old.error?.message).toMatch(
			/has a file but no text, and no file is attached \(item 1\)/,
		);
		expect(String((old.error as { description?: string } | undefined)?.description)).toMatch(
			/Attach Input Binaries.*data0/,
		);
		const empty = await turn(undefined, 'empty', '   ');
		expect(empty.error?.message).toMatch(/No chat message to send: the chat message is empty/);
		expect(emu.requests.length).toBe(before);
		// Attach Input Binaries on the older node attaches the file; the line names it
		const named = await turn(undefined, 'v12-named', '', {
			typeVersion: 1.2,
			item: { binary },
			extra: { options: { binaryProperties: 'data0' } },
		});
		expect(named.error).toBeUndefined();
		expect(bodyOf().messages).toEqual([{ role: 'user', content: 'Attached file: notes.txt' }]);
	});
});

describe("the node's inputs", () => {
	it('a Memory input for the chat operations only', () => {
		const memoryInput = {
			type: 'ai_memory',
			displayName: 'Memory',
			maxConnections: 1,
			required: false,
		};
		expect(nodeInputs('agent', 'execute')).toEqual(['main', memoryInput]);
		expect(nodeInputs(undefined, undefined)).toEqual(['main', memoryInput]);
		expect(nodeInputs('agent', 'chatCompletion')).toEqual(['main', memoryInput]);
		expect(nodeInputs('agent', 'getAll')).toEqual(['main']);
		expect(nodeInputs('file', 'upload')).toEqual(['main']);
	});
});
