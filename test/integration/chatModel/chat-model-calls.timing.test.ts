/**
 * The Agent Platform Chat Model's calls to the platform (helpers/chatModel/platformCalls.ts):
 * the request one model call makes, the answer as n8n's SDK wants it, streamed or whole, a refused
 * request as a plain error, and the pace shared with the action node.
 *
 * Run: npx jest test/integration/chatModel --selectProjects integration
 */
import type { IDataObject } from 'n8n-workflow';
import { byId, credentialsFor } from '../../infra/n8n/credentials';
import { runNode } from '../../infra/n8n/runNode';
import { callModel, CHAT, completionPosts, emu, TEXT, user } from './chat-model.shared';

describe('Agent Platform Chat Model: calls', () => {
	it('one model call is one request with the picked choices; the answer is the run output', async () => {
		const choices = emu.firstOptions(CHAT);
		const { json, error } = await callModel([
			{
				messages: [
					{ role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
					user('Tell me about otters'),
				],
				settings: { choices },
			},
		]);
		expect(error).toBeUndefined();
		expect(completionPosts()).toHaveLength(1);
		expect(completionPosts()[0].body).toEqual({
			...choices,
			messages: [
				{ role: 'system', content: 'Be brief.' },
				{ role: 'user', content: 'Tell me about otters' },
			],
		});
		const run = [...emu.state.runs.values()].pop()!;
		expect(json[0]).toMatchObject({
			finishReason: 'stop',
			message: { role: 'assistant', content: [{ type: 'text', text: run.output }] },
		});
		expect((json[0].usage as IDataObject).totalTokens).toBeGreaterThan(0);
	});

	it('streamed: the pieces come as they are written and make the run output', async () => {
		const { json, error } = await callModel([{ messages: [user('Stream me')], stream: true }]);
		expect(error).toBeUndefined();
		const chunks = json[0].chunks as IDataObject[];
		const deltas = chunks.filter((c) => c.type === 'text-delta').map((c) => c.delta);
		expect(deltas.length).toBeGreaterThan(2);
		expect(deltas.join('')).toBe([...emu.state.runs.values()].pop()!.output);
		expect(chunks[chunks.length - 1]).toEqual({ type: 'finish', finishReason: 'stop' });
		expect(completionPosts()).toHaveLength(1);
		expect(completionPosts()[0].body).toMatchObject({ stream: true });
	});

	it("an agent whose endpoint refuses: the platform's words as a plain error, sent once", async () => {
		const { error } = await callModel([
			{ messages: [user('Hello')], settings: { agentId: String(TEXT) } },
		]);
		expect(error?.constructor.name).toBe('NodeApiError');
		expect(error?.message).toMatch(/Chat completions are only available for chat agents/);
		expect(error?.message).not.toContain(emu.apiKey);
		// no Chat Trigger here: the description adds to the message (transport/chatErrors.ts)
		expect((error as Error & { description?: string }).description).not.toContain(error?.message);
		expect(completionPosts()).toHaveLength(1);
	});

	it('a failed run is an error, not an empty answer, streamed or not', async () => {
		emu.configureAgent(CHAT, { fail: 'The model is overloaded.' });
		try {
			for (const stream of [false, true]) {
				emu.clearRequests();
				const { error } = await callModel([{ messages: [user('Hello')], stream }]);
				const { message, description } = error as Error & { description?: string };
				expect(`${message} ${description}`).toMatch(/overloaded/);
				expect(completionPosts()).toHaveLength(1);
			}
		} finally {
			emu.configureAgent(CHAT, { fail: false });
		}
	});

	it("a 429 is waited out and the call sent again; with Max Retries 0 it fails with the rate limit's words", async () => {
		emu.setFaults({ rateLimitPerSecond: 1, rateLimitBurst: 1, retryAfterSeconds: 1 });
		const spendToken = () =>
			fetch(`${emu.url}/agents`, {
				headers: {
					Authorization: `Bearer ${emu.apiKey}`,
					'x-workspace-id': String(emu.workspaceId),
				},
			});
		// someone else (another n8n, say) spends the key's token: the model's call is refused once
		expect((await spendToken()).status).toBe(200);
		const first = await callModel([{ messages: [user('Hello')] }]);
		expect(first.error).toBeUndefined();
		expect(completionPosts().map((r) => r.status)).toEqual([429, 200]);

		await new Promise((resolve) => setTimeout(resolve, 1100));
		expect((await spendToken()).status).toBe(200);
		emu.clearRequests();
		const second = await callModel([{ messages: [user('Hello')], settings: { maxRetries: 0 } }]);
		expect(second.error?.message).toMatch(/rate limit/i);
		expect(completionPosts().map((r) => r.status)).toEqual([429]);
	});

	it("shares the key's pace with the action node: at 4 requests a second, the two nodes' requests together keep the interval", async () => {
		const rate = 4;
		const [model, action] = await Promise.all([
			callModel(
				[1, 2, 3, 4].map((i) => ({ messages: [user(`Question ${i}`)] })),
				rate,
			),
			runNode({
				parameters: { resource: 'agent', operation: 'get', agentId: byId(CHAT) },
				credentials: credentialsFor(emu, rate),
				items: [1, 2, 3, 4].map(() => ({ json: {} })),
			}),
		]);
		expect(model.error).toBeUndefined();
		expect(action.error).toBeUndefined();
		const arrivals = emu.requests.map((r) => r.at).sort((a, b) => a - b);
		expect(arrivals.length).toBeGreaterThanOrEqual(5);
		const gaps = arrivals.slice(1).map((at, i) => at - arrivals[i]);
		expect(Math.min(...gaps)).toBeGreaterThanOrEqual(0.8 * (1000 / rate));
	});
});
