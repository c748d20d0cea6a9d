/**
 * The nodes on the production platform's terms (docs/platform-assumptions.md), against the
 * emulator that now behaves as production does: messages as execute takes them, the agent's
 * defaults for Model, Tools and Temperature, the question types of public clients, nothing the
 * platform returns dropped, and failed streams that fail.
 *
 * This file: points 1 and 2.
 */
import type { IDataObject } from 'n8n-workflow';
import { byId, credentialsFor } from '../../infra/n8n/credentials';
import { runNode } from '../../infra/n8n/runNode';
import { CHAT, FORM, emu, execute, formAnswers, posts } from './execute-real-platform.shared';

describe('point 1: messages as execute takes them', () => {
	it('a system message in History runs as the leading developer message', async () => {
		const { outputs, error } = await runNode({
			parameters: execute({ history: { messages: [{ role: 'system', content: 'Be brief.' }] } }),
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		expect(outputs[0][0].json.status).toBe('succeeded');
		const body = posts()[0].body as IDataObject;
		expect(body.messages).toEqual([
			{ role: 'developer', content: 'Be brief.' },
			{ role: 'user', content: 'Hello there' },
		]);
		expect(JSON.stringify(body)).not.toContain('"system"');
	});

	it('instructions at the start are joined; turns of one role in a row are joined by a blank line', async () => {
		const historyJson = JSON.stringify([
			{ role: 'system', content: 'Be brief.' },
			{ role: 'developer', content: 'Answer in English.' },
			{ role: 'user', content: 'First question' },
			{ role: 'assistant', content: 'First answer' },
			{ role: 'user', content: 'Second question' },
		]);
		const { error } = await runNode({
			parameters: execute({ options: { historyJson } }),
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		expect((posts()[0].body as IDataObject).messages).toEqual([
			{ role: 'developer', content: 'Be brief.\n\nAnswer in English.' },
			{ role: 'user', content: 'First question' },
			{ role: 'assistant', content: 'First answer' },
			{ role: 'user', content: 'Second question\n\nHello there' },
		]);
	});

	it('a system message after the conversation began is refused before sending, naming the message and the item', async () => {
		const historyJson = JSON.stringify([
			{ role: 'user', content: 'Hi' },
			{ role: 'assistant', content: 'Hello' },
			{ role: 'system', content: 'Now be rude.' },
		]);
		const { error } = await runNode({
			parameters: execute({ options: { historyJson } }),
			items: [{ json: {} }, { json: {} }],
			credentials: credentialsFor(emu),
		});
		expect(error?.message).toBe(
			'Message 3 is a system message after the conversation began: the platform takes instructions only as the first message (item 1)',
		);
		expect(posts()).toHaveLength(0);
	});

	it('the emulator, like production, refuses system on execute and keeps it on chat completions', async () => {
		const agent = emu.state.agents.get(CHAT)!;
		const call = async (path: string, body: IDataObject) => {
			const res = await fetch(`${emu.url}${path}`, {
				method: 'POST',
				headers: {
					Authorization: `Bearer ${emu.apiKey}`,
					'x-workspace-id': emu.workspaceId,
					'Content-Type': 'application/json',
				},
				body: JSON.stringify(body),
			});
			return { status: res.status, json: (await res.json()) as IDataObject };
		};
		const system = [
			{ role: 'system', content: 'x' },
			{ role: 'user', content: 'y' },
		];
		const refused = await call(`/agents/${agent.id}/execute`, { messages: system });
		expect(refused.status).toBe(422);
		expect(String(refused.json.message)).toMatch(/system role is not supported/);
		const twoUsers = await call(`/agents/${agent.id}/execute`, {
			messages: [
				{ role: 'user', content: 'a' },
				{ role: 'user', content: 'b' },
			],
		});
		expect(twoUsers.status).toBe(422);
		const late = await call(`/agents/${agent.id}/execute`, {
			messages: [
				{ role: 'user', content: 'a' },
				{ role: 'developer', content: 'b' },
			],
		});
		expect(late.status).toBe(422);
		expect(
			(await call(`/agents/${agent.id}/openai/chat/completions`, { messages: system })).status,
		).toBe(200);
	});
});

describe("point 2: the agent's defaults and question types", () => {
	it('Model, Tools and Temperature at Agent Default send nothing, and the agent runs with its own', async () => {
		const { outputs, error } = await runNode({
			parameters: execute({ model: '', tools: '', temperature: '' }),
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		expect(outputs[0][0].json.status).toBe('succeeded');
		const body = posts()[0].body as IDataObject;
		for (const name of ['model', 'tools', 'temperature']) {
			expect(body).not.toHaveProperty(name);
			expect(body.answers).not.toHaveProperty(name);
		}
		const record = emu.state.runs.get(Number(outputs[0][0].json.id))!;
		expect(record.answers.temperature).toBe('1');
	});

	it('Temperature takes any number from 0 to 2, typed or from an expression, sent as text', async () => {
		await runNode({
			parameters: execute({ temperature: 'custom', temperatureValue: 0.7 }),
			credentials: credentialsFor(emu),
		});
		expect((posts()[0].body as IDataObject).temperature).toBe('0.7');
		emu.clearRequests();
		const { error } = await runNode({
			parameters: execute({ temperature: '={{ 1.3 }}' }),
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		expect((posts()[0].body as IDataObject).temperature).toBe('1.3');
		emu.clearRequests();
		const wrong = await runNode({
			parameters: execute({ temperature: '={{ 3 }}' }),
			credentials: credentialsFor(emu),
		});
		expect(wrong.error?.message).toBe(
			'The temperature must be a number from 0 to 2, not "3" (item 1)',
		);
		expect(posts()).toHaveLength(0);
	});

	it('textarea, multiselect (comma-joined), file (URL), label:value and {label, value} options, a question with a default', async () => {
		const { outputs, error } = await runNode({
			parameters: execute(
				formAnswers({
					brief: 'Line one\nLine two',
					tone: 'formal',
					length: 'Long',
					channels: 'email, sms',
					logo: 'https://example.test/logo.png',
				}),
				FORM,
			),
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		expect(outputs[0][0].json.status).toBe('succeeded');
		const body = posts()[0].body as IDataObject;
		expect(body).toMatchObject({
			brief: 'Line one\nLine two',
			tone: 'formal',
			length: 'l',
			channels: 'email,sms',
			logo: 'https://example.test/logo.png',
		});
		expect(body).not.toHaveProperty('language');
		expect(emu.state.runs.get(Number(outputs[0][0].json.id))!.answers.language).toBe('en');
	});

	it('every missing or wrong answer of an item is named in one error, before sending', async () => {
		const { error } = await runNode({
			parameters: execute(
				formAnswers({ tone: 'angry', length: 's', channels: 'email, fax', logo: 'not a url' }),
				FORM,
			),
			credentials: credentialsFor(emu),
		});
		expect(error?.message).toBe(
			'4 answers for the agent "Form Agent" need fixing (item 1): ' +
				'1) "angry" is not one of the options of "Tone" (tone) for the agent "Form Agent"; ' +
				'2) "fax" is not one of the options of "Channels" (channels) for the agent "Form Agent"; ' +
				'3) The answer to "Logo" (logo) must be the URL of a file (http or https), not "not a url"; ' +
				'4) The agent "Form Agent" needs an answer to "Brief" (brief)',
		);
		expect(posts()).toHaveLength(0);
	});

	it('Chat Completion with every setting at Agent Default sends none of them', async () => {
		const { outputs, error } = await runNode({
			parameters: {
				resource: 'agent',
				operation: 'chatCompletion',
				agentId: byId(CHAT),
				message: 'Hi',
				model: '',
				tools: '',
				temperature: '',
			},
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		expect(String(outputs[0][0].json.content).length).toBeGreaterThan(0);
		expect(Object.keys(posts()[0].body as IDataObject).sort()).toEqual(['messages', 'stream']);
	});
});
