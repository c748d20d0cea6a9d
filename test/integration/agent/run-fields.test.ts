/**
 * What a workflow can rely on whichever way it got a run (README: "Fields a workflow can rely
 * on"): a chat agent run with Wait for Completion, run again with Stream, and each finished run
 * as the platform delivers it to the trigger's webhook, shaped by the trigger's own functions
 * (its webhook() itself runs in real n8n: test/e2e/trigger.e2e.test.ts). And what each kind of
 * agent receives: Message and History only when its form asks for `messages`.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { PlatformEmulator } from '../../../dev/emulator';
import { readBody, startLoopbackServer, type LoopbackServer } from '../../../dev/loopback';
import {
	deliveryItem,
	deliveryJson,
	newWebhookSecret,
	urlWithSecret,
} from '../../../nodes/AgentPlatform/helpers/trigger/delivery';
import { byId, credentialsFor } from '../../infra/n8n/credentials';
import { runNode } from '../../infra/n8n/runNode';
import { useEmulator } from '../../infra/useEmulator';
import {
	CHAT_AGENT as CHAT,
	IMAGE_AGENT as IMAGE,
	TEXT_AGENT as TEXT,
} from '../../../dev/emulator';

/** The fields every item about a run carries, with the same words, whatever made it. */
const COMMON = [
	'agent_id',
	'credits',
	'generated_files',
	'id',
	'output',
	'platform_status',
	'root_id',
	'status',
	'template_id',
];

let emu: PlatformEmulator;
useEmulator({ timeScale: 100, executionSeconds: 20, quiet: true }, (started) => (emu = started));

let receiver: LoopbackServer;
const delivered: Buffer[] = [];
beforeAll(async () => {
	receiver = await startLoopbackServer(async (req, res) => {
		delivered.push(await readBody(req));
		res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
	});
});
afterAll(async () => receiver.close());

const executePosts = () =>
	emu.requests.filter((r) => r.method === 'POST' && /\/agents\/\d+\/execute$/.test(r.path));

async function run(parameters: INodeParameters): Promise<IDataObject> {
	const { outputs, error } = await runNode({
		parameters: { resource: 'agent', operation: 'execute', ...parameters },
		credentials: credentialsFor(emu),
	});
	expect(error).toBeUndefined();
	return outputs[0][0].json;
}

/** The trigger's item for the delivery of one run. */
async function triggerItemOf(runId: unknown): Promise<IDataObject> {
	const ofRun = () =>
		delivered.map((body) => deliveryJson(body, undefined)).find((json) => json.id === runId);
	await emu.waitFor(() => ofRun() !== undefined);
	return deliveryItem(ofRun()!);
}

const common = (item: IDataObject) =>
	Object.fromEntries(COMMON.map((name) => [name, item[name]])) as IDataObject;

describe('one vocabulary: Wait for Completion, Stream and the trigger', () => {
	it('give the same fields, with the same status words, for the same agent', async () => {
		const created = await fetch(`${emu.url}/agents/${CHAT}/webhooks`, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${emu.apiKey}`,
				'x-workspace-id': emu.workspaceId,
				'content-type': 'application/json',
			},
			body: JSON.stringify({
				url: urlWithSecret(`${receiver.origin}/webhook/run-fields/webhook`, newWebhookSecret()),
				method: 'POST',
			}),
		});
		expect(created.status).toBe(201);

		const chat = { agentId: byId(CHAT), message: 'Hello, which fields do I get?' };
		const wait = await run({ ...chat, responseMode: 'wait' });
		const stream = await run({ ...chat, responseMode: 'stream' });
		const requests = emu.requests.length;
		const waitTrigger = await triggerItemOf(wait.id);
		const streamTrigger = await triggerItemOf(stream.id);
		expect(emu.requests.length).toBe(requests); // the trigger's fields cost no request

		for (const item of [wait, stream, waitTrigger, streamTrigger]) {
			expect(Object.keys(item)).toEqual(expect.arrayContaining(COMMON));
			expect(item).toMatchObject({ status: 'succeeded', agent_id: CHAT, template_id: CHAT });
		}
		// the platform's own words are kept: the stream ends "completed", the record says "succeeded"
		expect(stream.platform_status).toBe('completed');
		expect(wait.platform_status).toBe('succeeded');
		// the trigger's item of a run says what Execute said of it
		const { platform_status: _w, ...waitFields } = common(wait);
		const { platform_status: _s, ...streamFields } = common(stream);
		void [_w, _s];
		expect(common(waitTrigger)).toMatchObject(waitFields);
		expect(common(streamTrigger)).toMatchObject(streamFields);
		// and keeps what the platform delivered
		expect(waitTrigger.input).toBeDefined();
		expect(executePosts()).toHaveLength(2);
	});
});

describe('Message and History go only to agents that ask for messages', () => {
	const history = {
		messages: [
			{ role: 'user', content: 'Earlier question' },
			{ role: 'assistant', content: 'Earlier answer' },
		],
	};
	const chatInput = { message: 'Hello! What can you do for me?', history };

	it('a chat agent receives them', async () => {
		await run({ agentId: byId(CHAT), ...chatInput });
		const body = executePosts()[0].body as IDataObject;
		expect(body.messages).toEqual([
			...history.messages,
			{ role: 'user', content: 'Hello! What can you do for me?' },
		]);
		expect((body.answers as IDataObject).messages).toEqual(body.messages);
	});

	it('a text agent and an image agent do not, though the Message is still filled', async () => {
		const size = String(
			emu.state.agents.get(IMAGE)!.questions.find((q) => q.name === 'size')!.options![0],
		);
		const cases: Array<[number, Record<string, string>]> = [
			[TEXT, { topic: 'Otters', tone: 'casual' }],
			[IMAGE, { prompt: 'An otter reading', size }],
		];
		for (const [agentId, answers] of cases) {
			emu.clearRequests();
			const item = await run({
				agentId: byId(agentId),
				...chatInput,
				answers: { mappingMode: 'defineBelow', value: answers },
			});
			expect(item.status).toBe('succeeded');
			const body = executePosts()[0].body as IDataObject;
			expect({ agentId, sent: body }).toEqual({
				agentId,
				sent: expect.objectContaining({ ...answers, answers: expect.objectContaining(answers) }),
			});
			expect(body).not.toHaveProperty('messages');
			expect(body.answers).not.toHaveProperty('messages');
		}
	});
});
