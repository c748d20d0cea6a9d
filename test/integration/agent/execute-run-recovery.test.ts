/**
 * A start call that may have reached the platform but got no usable answer (docs/never-lose-a-run.md):
 * the node never sends it again, and finds the run it started in GET /agent-responses.
 */
import type { INodeParameters } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { PlatformEmulator } from '../../../dev/emulator';
import { startEmulator } from '../../../dev/emulator';
import { byId, credentialsFor } from '../../infra/n8n/credentials';
import { runNode } from '../../infra/n8n/runNode';
import { RECOVERY } from '../../../nodes/AgentPlatform/helpers/runs/runRecovery';
import { CHAT_AGENT as CHAT } from '../../../dev/emulator';

let emu: PlatformEmulator;
const OUTPUT = 'The whole answer, from its first word to its last.';
const saved = { ...RECOVERY };

beforeAll(async () => {
	emu = await startEmulator({ timeScale: 10, executionSeconds: 5, quiet: true });
	emu.configureAgent(CHAT, { output: OUTPUT });
	RECOVERY.pauseMs = 200;
});
afterAll(async () => {
	Object.assign(RECOVERY, saved);
	await emu.stop();
});
beforeEach(() => {
	emu.resetFaults();
	emu.clearRequests();
});

const posts = () => emu.requests.filter((r) => r.method === 'POST');
const lookups = () =>
	emu.requests.filter(
		(r) => r.method === 'GET' && r.path === '/agent-responses' && r.query.agent_id === String(CHAT),
	);

function execute(message: string, responseMode = 'wait'): INodeParameters {
	return { resource: 'agent', operation: 'execute', agentId: byId(CHAT), message, responseMode };
}

describe('a start call cut after it was sent', () => {
	it('connection cut after the run started: one run, one POST, the whole output in the item', async () => {
		emu.setFaults({ cutAfterProcessing: 'reset', faultMethods: ['POST'] });
		const before = emu.runCount;
		const { outputs, error } = await runNode({
			parameters: execute('Cut me once'),
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		expect(posts()).toHaveLength(1);
		expect(emu.runCount).toBe(before + 1);
		expect(lookups().length).toBeGreaterThanOrEqual(1);
		expect(outputs[0][0].json).toMatchObject({ status: 'succeeded', output: OUTPUT });
	});

	it('a 524 page at once to the start call: one run, one POST, the whole output in the item', async () => {
		emu.setFaults({ cutAfterProcessing: 524, faultMethods: ['POST'] });
		const before = emu.runCount;
		const { outputs, error } = await runNode({
			parameters: execute('Gateway page please'),
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		expect(posts()).toHaveLength(1);
		expect(emu.runCount).toBe(before + 1);
		expect(outputs[0][0].json).toMatchObject({ status: 'succeeded', output: OUTPUT });
	});

	it('Start Only returns the recovered run', async () => {
		emu.setFaults({ cutAfterProcessing: 'reset', faultMethods: ['POST'] });
		const before = emu.runCount;
		const { outputs, error } = await runNode({
			parameters: execute('Start me only', 'start'),
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		expect(posts()).toHaveLength(1);
		expect(emu.runCount).toBe(before + 1);
		const id = Number(outputs[0][0].json.id);
		expect(emu.state.runs.get(id)?.input).toBe('Start me only');
	});

	it('identical runs from before the call are not mistaken for it', async () => {
		const message = 'Same words every time';
		for (let i = 0; i < 2; i++) {
			const { error } = await runNode({
				parameters: execute(message, 'start'),
				credentials: credentialsFor(emu),
			});
			expect(error).toBeUndefined();
		}
		// Those two ran five minutes ago.
		const old = [...emu.state.runs.values()].filter((r) => r.input === message);
		expect(old).toHaveLength(2);
		for (const run of old) run.created_at = new Date(Date.now() - 5 * 60_000).toISOString();
		emu.clearRequests();
		emu.setFaults({ cutAfterProcessing: 'reset', faultMethods: ['POST'] });
		const { outputs, error } = await runNode({
			parameters: execute(message),
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		expect(posts()).toHaveLength(1);
		const id = Number(outputs[0][0].json.id);
		expect(old.map((r) => r.id)).not.toContain(id);
		expect(emu.state.runs.get(id)?.input).toBe(message);
		expect(outputs[0][0].json).toMatchObject({ status: 'succeeded', output: OUTPUT });
	});

	it("two runs of this call's moment with the same input: fails naming both, nothing sent again", async () => {
		const message = 'Twice at once';
		const { error: first } = await runNode({
			parameters: execute(message, 'start'),
			credentials: credentialsFor(emu),
		});
		expect(first).toBeUndefined();
		const twin = [...emu.state.runs.values()].find((r) => r.input === message)!;
		emu.clearRequests();
		emu.setFaults({ cutAfterProcessing: 'reset', faultMethods: ['POST'] });
		const { error } = await runNode({
			parameters: execute(message),
			credentials: credentialsFor(emu),
		});
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error!.message).toContain('could be it');
		expect(error!.message).toContain(String(twin.id));
		expect(posts()).toHaveLength(1);
	});

	it('no run started and the connection cut: a clear error, exactly one POST, nothing started', async () => {
		emu.setFaults({ resetConnectionRate: 1, faultMethods: ['POST'] });
		const before = emu.runCount;
		const { error } = await runNode({
			parameters: execute('Never arrives'),
			credentials: credentialsFor(emu),
		});
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error!.message).toBe(
			'The start of the run got no answer, and the platform may have started it',
		);
		const description = (error as NodeApiError).description ?? '';
		expect(description).toContain('Nothing was sent again');
		expect(description).toContain('Agent Response → Get Many');
		expect(posts()).toHaveLength(1);
		expect(lookups()).toHaveLength(RECOVERY.looks);
		expect(emu.runCount).toBe(before);
	});

	it('a plain refusal (4xx) is not looked up', async () => {
		emu.setFaults({ serverErrorRate: 1, serverErrorStatus: 422, faultMethods: ['POST'] });
		const { error } = await runNode({
			parameters: execute('Refused'),
			credentials: credentialsFor(emu),
		});
		expect(error).toBeInstanceOf(NodeApiError);
		expect((error as NodeApiError).httpCode).toBe('422');
		expect(lookups()).toHaveLength(0);
		expect(posts()).toHaveLength(1);
	});
});
