/**
 * What a run costs in requests (the key's budget is about one a second): Wait for Completion sends
 * the run with the platform's wait flag, so a run that ends within the platform's 100 s wait is one
 * request; a wait that ends without it (a "running" answer, a 524 page, a cut connection) is followed by
 * finding the run, never by a second start, and sparse polls. Agent definitions are kept in the
 * process across executions, per credential; lists ask for large pages and learn what they got.
 *
 * Time-scaled: the emulator's clock runs SCALE times faster, so the node's polling bounds are
 * scaled by the same factor (as the bench does); the 5 % rule does not depend on the scale.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { PlatformEmulator } from '../../../dev/emulator';
import { startEmulator } from '../../../dev/emulator';
import { AGENT_DEFINITIONS } from '../../../nodes/AgentPlatform/helpers/agents/definitions';
import { POLLING } from '../../../nodes/AgentPlatform/helpers/runs/polling';
import { RECOVERY } from '../../../nodes/AgentPlatform/helpers/runs/runRecovery';
import { byId, credentialsFor } from '../../infra/n8n/credentials';
import { runNode } from '../../infra/n8n/runNode';
import { CHAT_AGENT as CHAT, TEXT_AGENT as TEXT } from '../../../dev/emulator';

const SCALE = 100;
const OUTPUT = 'The whole answer, from its first word to its last.';
const saved = {
	polling: { ...POLLING },
	recovery: { ...RECOVERY },
	agents: { ...AGENT_DEFINITIONS },
};
let emu: PlatformEmulator;

beforeAll(async () => {
	emu = await startEmulator({ timeScale: SCALE, executionSeconds: 30, quiet: true });
	emu.configureAgent(CHAT, { output: OUTPUT });
	Object.assign(POLLING, {
		minIntervalMs: saved.polling.minIntervalMs / SCALE,
		maxIntervalMs: saved.polling.maxIntervalMs / SCALE,
	});
	RECOVERY.pauseMs = saved.recovery.pauseMs / SCALE;
});
afterAll(async () => {
	Object.assign(POLLING, saved.polling);
	Object.assign(RECOVERY, saved.recovery);
	Object.assign(AGENT_DEFINITIONS, saved.agents);
	await emu.stop();
});
beforeEach(() => {
	emu.resetFaults();
	emu.clearRequests();
	emu.configureAgent(CHAT, { executionSeconds: 30 });
});

function execute(message: string, extra: INodeParameters = {}): INodeParameters {
	return {
		resource: 'agent',
		operation: 'execute',
		agentId: byId(CHAT),
		message,
		responseMode: 'wait',
		...extra,
	};
}

async function runOnce(message: string) {
	const before = emu.runCount;
	const result = await runNode({ parameters: execute(message), credentials: credentialsFor(emu) });
	return { ...result, runs: emu.runCount - before, requests: [...emu.requests] };
}

const starts = (requests: PlatformEmulator['requests']) =>
	requests.filter((r) => r.method === 'POST' && r.path === `/agents/${CHAT}/execute`);

describe('one request per run', () => {
	it('a 30 s run is one request, with the wait flag; the agent is read once across executions', async () => {
		const first = await runOnce('First of two');
		expect(first.error).toBeUndefined();
		expect(first.outputs[0][0].json).toMatchObject({ status: 'succeeded', output: OUTPUT });
		// The first execution of the process reads the agent; the second keeps it.
		expect(first.requests.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
			`GET /agents/${CHAT}`,
			`POST /agents/${CHAT}/execute`,
		]);
		const body = starts(first.requests)[0].body as IDataObject;
		expect(body).toMatchObject({ wait_execution: true, waitExecution: true });

		emu.clearRequests();
		const second = await runOnce('Second of two');
		expect(second.error).toBeUndefined();
		expect(second.outputs[0][0].json).toMatchObject({ status: 'succeeded', output: OUTPUT });
		expect(second.requests).toHaveLength(1);
		expect(starts(second.requests)).toHaveLength(1);
	});

	it('Start Only sends no wait flag and answers at once', async () => {
		const { outputs, error } = await runNode({
			parameters: execute('Just start', { responseMode: 'start' }),
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		expect(outputs[0][0].json.status).toBe('starting');
		expect(starts(emu.requests)[0].body).toMatchObject({ wait_execution: false });
	});

	it("a run past the platform's 100 s wait: one run, polled sparsely after it", async () => {
		emu.configureAgent(CHAT, { executionSeconds: 150 });
		const { outputs, error, runs, requests } = await runOnce('A long one');
		expect(error).toBeUndefined();
		expect(runs).toBe(1);
		expect(outputs[0][0].json).toMatchObject({ status: 'succeeded', output: OUTPUT });
		expect(starts(requests)).toHaveLength(1);
		// 5 % of the time elapsed between polls after 100 s: about 9 polls for the 50 s left.
		const polls = requests.filter((r) => r.path.startsWith('/agent-responses/'));
		expect(polls.length).toBeGreaterThanOrEqual(1);
		expect(polls.length).toBeLessThanOrEqual(12);
	});

	it("a 524 page at the end of the wait: the run is found with one look, not run again, and polled on the run's own schedule", async () => {
		emu.configureAgent(CHAT, { executionSeconds: 150 });
		// 10 virtual seconds before the platform's 100 s wait ends: 100 ms at this scale (at 99 s the
		// margin was 10 ms, and a loaded machine's late timer let the platform answer first)
		emu.setFaults({ gatewayTimeoutSeconds: 90 });
		const cut = await runOnce('Cut long run');
		expect(cut.error).toBeUndefined();
		expect(cut.requests.filter((r) => r.status === 524).length).toBeGreaterThanOrEqual(1);
		expect(cut.runs).toBe(1);
		expect(cut.outputs[0][0].json).toMatchObject({ status: 'succeeded', output: OUTPUT });
		const isPoll = (r: { path: string }) => r.path.startsWith('/agent-responses/');
		// the start (cut) and one look at the agent's newest runs (the agent's definition may be read
		// before, by the first execution of the file)
		expect(starts(cut.requests).map((r) => r.status)).toEqual([524]);
		expect(cut.requests.filter((r) => r.path === '/agent-responses')).toHaveLength(1);
		// The polls go on with the run's 5 % schedule (elapsed counted from the start, not from the
		// cut): each poll comes at least 5 % of the elapsed time after the one before, the first after
		// the cut (90 s), every one but the last before the end (150 s). Late timers give fewer polls,
		// never more; a schedule restarted at the cut would poll every 2 s at first.
		const bySchedule = Math.floor(Math.log(150 / 90) / Math.log(1 + POLLING.ratio)) + 2;
		expect(cut.requests.filter(isPoll).length).toBeLessThanOrEqual(bySchedule);
	});

	it('a connection cut at the end of the wait: the run is found, not run again', async () => {
		emu.configureAgent(CHAT, { executionSeconds: 150 });
		emu.setFaults({ cutAfterProcessing: 'reset', faultMethods: ['POST'] });
		const { outputs, error, runs, requests } = await runOnce('Cut at the end of the wait');
		expect(error).toBeUndefined();
		expect(runs).toBe(1);
		expect(starts(requests)).toHaveLength(1);
		expect(outputs[0][0].json).toMatchObject({ status: 'succeeded', output: OUTPUT });
	});
});

describe('agent definitions kept in the process', () => {
	it('per credential: another Base URL reads its own', async () => {
		const other = await startEmulator({ timeScale: SCALE, executionSeconds: 1, quiet: true });
		try {
			await runOnce('Warm the first');
			const { error } = await runNode({
				parameters: execute('To the other platform'),
				credentials: credentialsFor(other),
			});
			expect(error).toBeUndefined();
			expect(other.requests.filter((r) => r.path === `/agents/${CHAT}`)).toHaveLength(1);
		} finally {
			await other.stop();
		}
	});

	it('a 422 to a run drops the kept definition: the next execution reads the agent anew', async () => {
		const agent = emu.state.agents.get(TEXT)!;
		const text = (topic: string): INodeParameters => ({
			resource: 'agent',
			operation: 'execute',
			agentId: byId(TEXT),
			responseMode: 'wait',
			options: { answersJson: JSON.stringify({ topic, tone: 'formal' }) },
		});
		const warm = await runNode({ parameters: text('first'), credentials: credentialsFor(emu) });
		expect(warm.error).toBeUndefined();
		const questions = agent.questions;
		// The agent gains a required question on the platform: the kept form does not know it.
		agent.questions = [
			...questions,
			{ type: 'text', name: 'audience', description: 'Who reads it', required: true },
		];
		try {
			emu.clearRequests();
			const refused = await runNode({
				parameters: text('second'),
				credentials: credentialsFor(emu),
			});
			expect(String(refused.error?.message)).toMatch(/audience/i);
			expect(emu.requests.filter((r) => r.path === `/agents/${TEXT}`)).toHaveLength(0);

			emu.clearRequests();
			const next = await runNode({ parameters: text('third'), credentials: credentialsFor(emu) });
			// Read anew, the form now asks for the answer before anything is sent.
			expect(emu.requests.filter((r) => r.path === `/agents/${TEXT}`)).toHaveLength(1);
			expect(String(next.error?.message)).toMatch(/audience/i);
			expect(starts(emu.requests)).toHaveLength(0);
		} finally {
			agent.questions = questions;
		}
	});

	it('a 422 to a Chat Completion drops the kept definition too', async () => {
		const agent = emu.state.agents.get(CHAT)!;
		const model = agent.questions.find((q) => q.name === 'model')!;
		const offered = model.options as string[];
		const chat = (): INodeParameters => ({
			resource: 'agent',
			operation: 'chatCompletion',
			agentId: byId(CHAT),
			message: 'What is an otter?',
			model: offered[0],
		});
		expect((await runNode({ parameters: chat(), credentials: credentialsFor(emu) })).error).toBe(
			undefined,
		);
		// The platform stops offering that model: the kept form still does.
		model.options = offered.slice(1);
		try {
			emu.clearRequests();
			const refused = await runNode({ parameters: chat(), credentials: credentialsFor(emu) });
			expect(emu.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
				`POST /agents/${CHAT}/openai/chat/completions 422`,
			]);
			expect(String(refused.error?.message)).toMatch(/model/i);

			emu.clearRequests();
			const next = await runNode({ parameters: chat(), credentials: credentialsFor(emu) });
			// Read anew, the form refuses the model before anything is sent.
			expect(emu.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /agents/${CHAT}`]);
			expect(String(next.error?.message)).toMatch(/model/i);
		} finally {
			model.options = offered;
		}
	});

	it('kept no longer than AGENT_DEFINITIONS.ttlMs', async () => {
		await runOnce('Warm');
		AGENT_DEFINITIONS.ttlMs = 0;
		try {
			emu.clearRequests();
			await runOnce('After the time');
			expect(emu.requests.filter((r) => r.path === `/agents/${CHAT}`)).toHaveLength(1);
		} finally {
			AGENT_DEFINITIONS.ttlMs = saved.agents.ttlMs;
		}
	});
});
