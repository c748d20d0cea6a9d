/**
 * The nodes on the production platform's terms (docs/platform-assumptions.md), against the
 * emulator that now behaves as production does: messages as execute takes them, the agent's
 * defaults for Model, Tools and Temperature, the question types of public clients, nothing the
 * platform returns dropped, and failed streams that fail.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { PlatformEmulator, StoredAgent } from '../../../dev/emulator';
import { AgentPlatformApi } from '../../../credentials/AgentPlatformApi.credentials';
import { startEmulator } from '../../../dev/emulator';
import { byId, credentialsFor, runNode } from '../../infra/n8n';

let emu: PlatformEmulator;
const CHAT = 1;
const FORM = 900; // an agent added below, with the question types of public clients

beforeAll(async () => {
	emu = await startEmulator({ timeScale: 100, executionSeconds: 5, quiet: true });
	const template = emu.state.agents.get(3)!;
	const agent: StoredAgent = {
		...template,
		id: FORM,
		title: 'Form Agent',
		fileIds: [],
		questions: [
			{ type: 'textarea', name: 'brief', description: 'What to write', required: true },
			{
				type: 'select',
				name: 'tone',
				description: 'Tone',
				required: true,
				options: ['Formal tone:formal', 'Casual tone:casual'],
			},
			{
				type: 'select',
				name: 'length',
				description: 'Length',
				required: true,
				options: [
					{ label: 'Short', value: 's' },
					{ label: 'Long', value: 'l' },
				],
			},
			{
				type: 'multiselect',
				name: 'channels',
				description: 'Where to post',
				required: false,
				options: ['email', 'chat', 'sms'],
			},
			{ type: 'file', name: 'logo', description: 'A logo', required: false },
			{
				type: 'select',
				name: 'language',
				description: 'Language',
				required: true,
				options: ['en', 'pt'],
				default: 'en',
			},
		],
	};
	emu.state.agents.set(FORM, agent);
});
afterAll(async () => emu.stop());
beforeEach(() => {
	emu.resetFaults();
	emu.clearRequests();
});

const posts = () => emu.requests.filter((r) => r.method === 'POST');

function execute(extra: INodeParameters = {}, agentId = CHAT): INodeParameters {
	return {
		resource: 'agent',
		operation: 'execute',
		agentId: byId(agentId),
		...(agentId === CHAT ? { message: 'Hello there' } : {}),
		...extra,
	};
}

const formAnswers = (value: IDataObject) =>
	({ answers: { mappingMode: 'defineBelow', value } }) as unknown as INodeParameters;

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
		const record = emu.state.responses.get(Number(outputs[0][0].json.id))!;
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
		expect(emu.state.responses.get(Number(outputs[0][0].json.id))!.answers.language).toBe('en');
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

describe('point 3: the address', () => {
	it('the credential defaults to the production address; no text claims a /v1', () => {
		const credential = new AgentPlatformApi();
		const baseUrl = credential.properties.find((p) => p.name === 'baseUrl')!;
		expect(baseUrl.default).toBe('https://api.tess.im');
		expect(JSON.stringify(credential)).not.toMatch(/\/v1/);
	});

	it('the emulator serves at its root by default, and under a base path when asked', async () => {
		expect(new URL(emu.url).pathname).toBe('/');
		const based = await startEmulator({ basePath: '/api', quiet: true });
		try {
			expect(based.url).toMatch(/\/api$/);
			const { outputs, error } = await runNode({
				parameters: { resource: 'agent', operation: 'get', agentId: byId(CHAT) },
				credentials: credentialsFor(based),
			});
			expect(error).toBeUndefined();
			expect(outputs[0][0].json.id).toBe(CHAT);
			expect(based.requests[0].path).toBe(`/agents/${CHAT}`);
		} finally {
			await based.stop();
		}
	});
});

describe('point 6: never lose a run', () => {
	it('behind a gateway that ends calls first, a waiting execute gets a 524 page while the run goes on', async () => {
		// the platform holds a waiting call up to 100 s, the gateway's own limit: whichever ends first
		emu.setFaults({ gatewayTimeoutSeconds: 95 });
		emu.configureAgent(CHAT, { executionSeconds: 150 });
		try {
			const before = emu.executionCount;
			const res = await fetch(`${emu.url}/agents/${CHAT}/execute`, {
				method: 'POST',
				headers: {
					Authorization: `Bearer ${emu.apiKey}`,
					'x-workspace-id': emu.workspaceId,
					'Content-Type': 'application/json',
				},
				body: JSON.stringify({
					messages: [{ role: 'user', content: 'slow' }],
					wait_execution: true,
				}),
			});
			expect(res.status).toBe(524);
			expect(res.headers.get('content-type')).toMatch(/text\/html/);
			expect(await res.text()).toContain('Error code 524');
			expect(emu.executionCount).toBe(before + 1);
			const record = [...emu.state.responses.values()].at(-1)!;
			await emu.waitFor(() => record.status === 'succeeded', 5000);
		} finally {
			emu.configureAgent(CHAT, { executionSeconds: 5 });
		}
	});

	it('Wait for Completion survives it: a 150 s run (time-scaled), one run on the platform, the whole output in the item', async () => {
		emu.setFaults({ gatewayTimeoutSeconds: 100 });
		emu.configureAgent(CHAT, {
			executionSeconds: 150,
			output: 'The whole answer, from its first word to its last.',
		});
		try {
			const before = emu.executionCount;
			const timeoutsBefore = emu.gatewayTimeouts;
			const { outputs, error } = await runNode({
				parameters: execute({ responseMode: 'wait' }),
				credentials: credentialsFor(emu),
			});
			expect(error).toBeUndefined();
			expect(emu.executionCount).toBe(before + 1);
			expect(posts()).toHaveLength(1);
			expect(emu.gatewayTimeouts).toBe(timeoutsBefore);
			expect(outputs[0][0].json).toMatchObject({
				status: 'succeeded',
				output: 'The whole answer, from its first word to its last.',
			});
		} finally {
			emu.configureAgent(CHAT, { executionSeconds: 5, output: undefined });
		}
	});
});

describe('point 4: nothing the platform returns is dropped', () => {
	it("the simplified item keeps the platform's fields but the echoed input", async () => {
		const { outputs } = await runNode({ parameters: execute(), credentials: credentialsFor(emu) });
		const item = outputs[0][0].json;
		expect(item).not.toHaveProperty('input');
		expect(item).toMatchObject({ agent_id: CHAT, generated_files: [], error: null });
		expect(item.created_at).toEqual(expect.any(String));
	});
});

describe('point 5: a failed stream or an error body fails', () => {
	const completion = (extra: INodeParameters = {}): INodeParameters => ({
		resource: 'agent',
		operation: 'chatCompletion',
		agentId: byId(CHAT),
		message: 'What is an otter?',
		stream: true,
		...extra,
	});

	it("an error event in a Chat Completion stream is a NodeApiError with the platform's words", async () => {
		emu.configureAgent(CHAT, { fail: 'The model is overloaded.' });
		try {
			const { error } = await runNode({
				parameters: completion(),
				credentials: credentialsFor(emu),
			});
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error?.message).toBe('The platform answered with an error: The model is overloaded.');
		} finally {
			emu.configureAgent(CHAT, { fail: false });
		}
	});

	it('under Continue On Fail the failed stream is an error item, not a success', async () => {
		emu.configureAgent(CHAT, { fail: 'The model is overloaded.' });
		try {
			const { outputs, error } = await runNode({
				parameters: completion(),
				continueOnFail: true,
				credentials: credentialsFor(emu),
			});
			expect(error).toBeUndefined();
			expect(outputs[0][0].json.error).toBe(
				'The platform answered with an error: The model is overloaded.',
			);
			expect(outputs[0][0].json).not.toHaveProperty('content');
		} finally {
			emu.configureAgent(CHAT, { fail: false });
		}
	});

	it("an error event in an Execute stream fails the item with the platform's words", async () => {
		emu.setFaults({ executeStreamError: 'The agent could not finish this run.' });
		const { error } = await runNode({
			parameters: execute({ responseMode: 'stream' }),
			credentials: credentialsFor(emu),
		});
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error?.message).toBe(
			'The platform answered with an error: The agent could not finish this run.',
		);
		expect(posts()).toHaveLength(1);
	});

	it("under Continue On Fail the Execute stream's error event is an error item, not a success", async () => {
		emu.setFaults({ executeStreamError: 'The agent could not finish this run.' });
		const { outputs, error } = await runNode({
			parameters: execute({ responseMode: 'stream' }),
			continueOnFail: true,
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		expect(outputs[0]).toHaveLength(1);
		expect(outputs[0][0].json.error).toBe(
			'The platform answered with an error: The agent could not finish this run.',
		);
		expect(outputs[0][0].json).not.toHaveProperty('output');
	});

	it('an {"error": …} body with status 200 fails Execute and Chat Completion', async () => {
		emu.setFaults({ okErrorBody: 'Something went wrong upstream.' });
		const run = await runNode({ parameters: execute(), credentials: credentialsFor(emu) });
		expect(run.error).toBeInstanceOf(NodeApiError);
		expect(run.error?.message).toBe(
			'The platform answered with an error: Something went wrong upstream.',
		);
		const chat = await runNode({
			parameters: completion({ stream: false }),
			credentials: credentialsFor(emu),
		});
		expect(chat.error?.message).toBe(
			'The platform answered with an error: Something went wrong upstream.',
		);
	});
});
