/**
 * The nodes on the production platform's terms (docs/platform-assumptions.md), against the
 * emulator that now behaves as production does: messages as execute takes them, the agent's
 * defaults for Model, Tools and Temperature, the question types of public clients, nothing the
 * platform returns dropped, and failed streams that fail.
 *
 * This file: points 3 to 6.
 */
import type { INodeParameters } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { AgentPlatformApi } from '../../../credentials/AgentPlatformApi.credentials';
import { byId, credentialsFor } from '../../infra/n8n/credentials';
import { runNode } from '../../infra/n8n/runNode';
import { withEmulator } from '../../infra/useEmulator';
import { CHAT, emu, execute, posts } from './execute-real-platform.shared';

describe('point 3: the address', () => {
	it('the credential defaults to the production address; no text claims a /v1', () => {
		const credential = new AgentPlatformApi();
		const baseUrl = credential.properties.find((p) => p.name === 'baseUrl')!;
		expect(baseUrl.default).toBe('https://api.tess.im');
		expect(JSON.stringify(credential)).not.toMatch(/\/v1/);
	});

	it('the emulator serves at its root by default, and under a base path when asked', async () => {
		expect(new URL(emu.url).pathname).toBe('/');
		await withEmulator({ basePath: '/api', quiet: true }, async (based) => {
			expect(based.url).toMatch(/\/api$/);
			const { outputs, error } = await runNode({
				parameters: { resource: 'agent', operation: 'get', agentId: byId(CHAT) },
				credentials: credentialsFor(based),
			});
			expect(error).toBeUndefined();
			expect(outputs[0][0].json.id).toBe(CHAT);
			expect(based.requests[0].path).toBe(`/agents/${CHAT}`);
		});
	});
});

describe('point 6: never lose a run', () => {
	it('behind a gateway that ends calls first, a waiting execute gets a 524 page while the run goes on', async () => {
		// the platform waits up to 100 s on a waiting call, the gateway's own limit: whichever ends first
		emu.setFaults({ gatewayTimeoutSeconds: 95 });
		emu.configureAgent(CHAT, { executionSeconds: 150 });
		try {
			const before = emu.runCount;
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
			expect(emu.runCount).toBe(before + 1);
			const record = [...emu.state.runs.values()].at(-1)!;
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
			const before = emu.runCount;
			const recorded = emu.requests.length;
			const { outputs, error } = await runNode({
				parameters: execute({ responseMode: 'wait' }),
				credentials: credentialsFor(emu),
			});
			expect(error).toBeUndefined();
			expect(emu.runCount).toBe(before + 1);
			expect(posts()).toHaveLength(1);
			// no answer was the gateway's 524 page
			expect(emu.requests.slice(recorded).filter((r) => r.status === 524)).toEqual([]);
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
