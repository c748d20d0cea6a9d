/**
 * Agent executions against the emulator, through n8n's real execution machinery: every response
 * mode, runs longer than the platform's 100 s wait (time-scaled), broken and silent streams,
 * cancellation, failing runs, chat completions, and the checks made before any request.
 *
 * This file: checks made before any request; Chat Completion.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import type { StreamChunk } from '../../infra/n8n/runNode';
import { byId, credentialsFor } from '../../infra/n8n/credentials';
import { runNode } from '../../infra/n8n/runNode';
import { CHAT, TEXT, chatSettings, emu, execute, posts } from './execute.shared';

describe('checks made before any execute request', () => {
	it('a missing required question names it and the item', async () => {
		const { error } = await runNode({
			parameters: execute(
				{ answers: { mappingMode: 'defineBelow', value: { tone: 'formal' } } },
				TEXT,
			),
			credentials: credentialsFor(emu),
		});
		expect(error?.message).toBe(
			'The agent "Text Summarizer" needs an answer to "Topic" (topic) (item 1)',
		);
		expect(posts()).toHaveLength(0);
	});

	it('a model the agent does not offer', async () => {
		const { error } = await runNode({
			parameters: execute({ model: 'not-a-model' }),
			credentials: credentialsFor(emu),
		});
		expect(error?.message).toBe(
			'"not-a-model" is not one of the options of "Model" (model) for the agent "Chat Assistant" (item 1)',
		);
		expect(posts()).toHaveLength(0);
	});

	it('six attachments, before any request at all', async () => {
		const { error } = await runNode({
			parameters: execute({ options: { fileIds: '1,2,3,4,5,6' } }),
			credentials: credentialsFor(emu),
		});
		expect(error?.message).toBe(
			'6 files are attached, but the platform takes at most 5 per run (item 1)',
		);
		expect(emu.requests).toHaveLength(0);
	});

	it('a chat agent without any message', async () => {
		const { error } = await runNode({
			parameters: execute({ message: '' }),
			credentials: credentialsFor(emu),
		});
		expect(error?.message).toBe(
			'The agent "Chat Assistant" is a chat agent: give a Message or a History (item 1)',
		);
		expect(posts()).toHaveLength(0);
	});

	it('a history with an unknown role', async () => {
		const { error } = await runNode({
			parameters: execute({ options: { historyJson: '[{"role":"robot","content":"beep"}]' } }),
			credentials: credentialsFor(emu),
		});
		expect(error?.message).toBe('Message 1 of History (JSON) has the role "robot" (item 1)');
		expect(posts()).toHaveLength(0);
	});
});

describe('Agent → Chat Completion', () => {
	const completion = (extra: INodeParameters = {}): INodeParameters => ({
		resource: 'agent',
		operation: 'chatCompletion',
		agentId: byId(CHAT),
		message: 'What is an otter?',
		history: { messages: [{ role: 'system', content: 'Be brief.' }] },
		...chatSettings(),
		...extra,
	});

	it('plain: the OpenAI response plus a content field', async () => {
		const { outputs, error } = await runNode({
			parameters: completion(),
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		const item = outputs[0][0].json as IDataObject & {
			choices: Array<{ message: { content: string } }>;
		};
		expect(item.object).toBe('chat.completion');
		expect(item.content).toBe(item.choices[0].message.content);
		expect(String(item.content).length).toBeGreaterThan(0);
		expect(posts()[0].path).toBe(`/agents/${CHAT}/openai/chat/completions`);
		expect(posts()[0].body).toMatchObject({
			...chatSettings(),
			stream: false,
			messages: [
				{ role: 'system', content: 'Be brief.' },
				{ role: 'user', content: 'What is an otter?' },
			],
		});
	});

	it('streamed: the same content, forwarded chunk by chunk', async () => {
		const plain = await runNode({ parameters: completion(), credentials: credentialsFor(emu) });
		const chunks: StreamChunk[] = [];
		const streamed = await runNode({
			parameters: completion({ stream: true }),
			credentials: credentialsFor(emu),
			streaming: { onChunk: (chunk) => chunks.push(chunk) },
		});
		expect(streamed.error).toBeUndefined();
		expect(streamed.outputs[0][0].json.content).toBe(plain.outputs[0][0].json.content);
		const texts = chunks.filter((c) => c.type === 'item').map((c) => c.content);
		expect(texts.length).toBeGreaterThan(1);
		expect(texts.join('')).toBe(plain.outputs[0][0].json.content);
	});

	it('refuses the developer role, which this endpoint does not take, before sending', async () => {
		const { error } = await runNode({
			parameters: completion({ options: { historyJson: '[{"role":"developer","content":"x"}]' } }),
			credentials: credentialsFor(emu),
		});
		expect(error?.message).toBe('Message 1 of History (JSON) has the role "developer" (item 1)');
		expect(posts()).toHaveLength(0);
	});
});
