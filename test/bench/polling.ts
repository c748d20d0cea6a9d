/**
 * Case 4, Requests per run: what Agent → Execute (Wait for Completion) costs in requests, the
 * key's budget (about one a second). The floor is one request a run: a waiting execute sent
 * straight to the emulator, measured in the same run. Rows: runs of 30 s and 90 s (within the
 * platform's 100 s wait), a 10-minute run (the wait, then polls every 5 % of the time elapsed,
 * 2 s to 30 s), a 150 s run whose wait ends in the gateway's 524 page (the run found, not run
 * again), all in-process; and 100 executions of one agent one after another in a running n8n of
 * each line (`n8n start`, a workflow Webhook → Agent → Execute called by its webhook; the agent's
 * definition is kept in the process), counted from the emulator's record.
 *
 * Time-scaled, honestly: the emulator's clock runs S times faster (S = --time-scale, default 20),
 * so a 10-minute run takes 30 real seconds. The node's clock is real time, so its polling bounds
 * are scaled by the same factor (POLLING.minIntervalMs = 2000/S, maxIntervalMs = 30000/S, and the
 * run lookup's pause): the schedule in virtual time is then the one a real run gets, since the
 * 5 % rule does not depend on the scale. What does not scale is the real time a request takes (a
 * few ms on loopback): it is multiplied by S in the lateness figures, which makes them pessimistic.
 * In n8n the node's bounds keep their real values: its 5 s runs (0.25 s at S = 20) end within the
 * platform's wait, so nothing there polls.
 *
 * The end of a run is taken from the emulator's own record (created_at/updated_at, virtual time)
 * placed on the real clock at the arrival of the execute request; the node sees the end when the
 * answer that carries it arrives (the waiting call's, or the last poll's).
 */
import type { IDataObject } from 'n8n-workflow';

import type { PlatformEmulator } from '../../dev/emulator';
import { startEmulator } from '../../dev/emulator';
import { POLLING } from '../../nodes/AgentPlatform/helpers/runs/polling';
import { RECOVERY } from '../../nodes/AgentPlatform/helpers/runs/runRecovery';
import {
	N8nInstance,
	agentPlatformCredential,
	fixtureId,
	selectedLines,
	type N8nLine,
} from '../../dev/n8n/harness';
import { loadWorkflow } from '../e2e/fixtures';
import { byId, credentialsFor } from '../infra/n8n/credentials';
import { runNode } from '../infra/n8n/runNode';
import type { BenchOptions, BenchRow } from './common';
import { median, progress, seconds } from './common';
import { TEXT_AGENT } from '../../dev/emulator';

// Each run's input is its own: a run whose answer was lost is found by agent, time and input, and
// the emulator's clock runs ahead of the node's, so the time window alone tells no runs apart.
let runNumber = 0;
const answers = () => ({ topic: `requests per run ${++runNumber}`, tone: 'formal' });

interface RunCost {
	requests: number;
	runs: number;
	/** How late the node saw the end, in virtual ms. */
	lateMs: number;
	/** Real ms the item took. */
	tookMs: number;
}

async function executeOnce(
	emu: PlatformEmulator,
	duration: number,
	scale: number,
): Promise<RunCost> {
	emu.configureAgent(TEXT_AGENT, { executionSeconds: duration });
	emu.clearRequests();
	const before = emu.runCount;
	const started = Date.now();
	const { outputs, error } = await runNode({
		parameters: {
			resource: 'agent',
			operation: 'execute',
			agentId: byId(TEXT_AGENT),
			responseMode: 'wait',
			options: {
				answersJson: JSON.stringify(answers()),
				timeout: Math.max(0.1, (2 * Math.max(duration, 100)) / 60 / scale),
			},
		},
		credentials: credentialsFor(emu),
	});
	const tookMs = Date.now() - started;
	const result = outputs[0]?.[0]?.json;
	if (error || result?.status !== 'succeeded')
		throw new Error(`the ${duration} s run did not succeed: ${error?.message}`);
	const record = emu.state.runs.get(Number(result.id))!;
	const post = emu.requests.find((r) => r.method === 'POST')!;
	const lasted = Date.parse(record.updated_at) - Date.parse(record.created_at); // virtual ms
	const endedAt = post.at + lasted / scale; // real ms
	const returnedAt = started + tookMs;
	return {
		requests: emu.requests.length,
		runs: emu.runCount - before,
		lateMs: Math.max(0, (returnedAt - endedAt) * scale),
		tookMs,
	};
}

/** The floor: one waiting execute sent straight to the platform. */
async function floorOnce(emu: PlatformEmulator, duration: number): Promise<RunCost> {
	emu.configureAgent(TEXT_AGENT, { executionSeconds: duration });
	emu.clearRequests();
	const started = Date.now();
	const answer = await fetch(`${emu.url}/agents/${TEXT_AGENT}/execute`, {
		method: 'POST',
		headers: {
			Authorization: `Bearer ${emu.apiKey}`,
			'x-workspace-id': String(emu.workspaceId),
			'Content-Type': 'application/json',
		},
		body: JSON.stringify({ ...answers(), wait_execution: true }),
	});
	const body = (await answer.json()) as IDataObject;
	if (!Array.isArray(body.responses)) throw new Error('the floor run got no answer');
	return { requests: emu.requests.length, runs: 1, lateMs: 0, tookMs: Date.now() - started };
}

export async function benchPolling(options: BenchOptions): Promise<BenchRow[]> {
	const scale = options.timeScale;
	const saved = { polling: { ...POLLING }, recovery: { ...RECOVERY } };
	const emu = await startEmulator({ port: 0, timeScale: scale, quiet: true });
	const rows: BenchRow[] = [];
	const reps = Math.max(1, Math.min(options.runs, 3));
	try {
		Object.assign(POLLING, {
			minIntervalMs: saved.polling.minIntervalMs / scale,
			maxIntervalMs: saved.polling.maxIntervalMs / scale,
		});
		RECOVERY.pauseMs = saved.recovery.pauseMs / scale;

		// Runs within the wait: the first execution of the process also reads the agent.
		for (const duration of [30, 90]) {
			const costs: RunCost[] = [];
			const floors: RunCost[] = [];
			for (let i = 0; i < reps; i++) {
				floors.push(await floorOnce(emu, duration));
				costs.push(await executeOnce(emu, duration, scale));
			}
			const worst = Math.max(...costs.map((c) => c.requests));
			const floor = Math.max(...floors.map((c) => c.requests));
			const took = median(costs.map((c) => c.tookMs));
			const floorTook = median(floors.map((c) => c.tookMs));
			progress(`requests per run: ${duration} s run: ${worst} requests, floor ${floor}`);
			rows.push({
				case: '4 Requests per run',
				figure: `Execute, Wait for Completion, a ${duration} s run (time scale ${scale}): requests ÷ the floor`,
				measured: `${worst} requests, ${seconds(took / 1000)} real`,
				baseline: `${floor} request, ${seconds(floorTook / 1000)} real`,
				value: worst / floor,
				target: '≤ 2 requests',
				met: worst <= 2,
				note: `worst of ${reps} runs; the first one of the process reads the agent's definition too`,
			});
		}

		// A 10-minute run: the wait, then sparse polls.
		{
			const duration = 600;
			const cost = await executeOnce(emu, duration, scale);
			const bound = Math.max(2000, 0.05 * duration * 1000);
			progress(
				`requests per run: 10-minute run: ${cost.requests} requests, end seen ${seconds(cost.lateMs / 1000)} late (virtual)`,
			);
			rows.push({
				case: '4 Requests per run',
				figure: `10-minute run (time scale ${scale}): requests; delay to see the end ÷ max(2 s, 5 %)`,
				measured: `${cost.requests} requests, end seen ${seconds(cost.lateMs / 1000)} late`,
				baseline: `1 request, ${seconds(bound / 1000)}`,
				value: cost.lateMs / bound,
				target: '≤ 40 requests, ≤ 1',
				met: cost.requests <= 40 && cost.lateMs <= bound,
			});
		}

		// A 150 s run whose wait ends in a 524 page, against the same run uncut.
		{
			const duration = 150;
			const uncut = await executeOnce(emu, duration, scale);
			emu.setFaults({ gatewayTimeoutSeconds: 99 });
			let cut: RunCost;
			try {
				cut = await executeOnce(emu, duration, scale);
			} finally {
				emu.resetFaults();
			}
			progress(
				`requests per run: 524 at the end of the wait: ${cut.requests} requests, ${cut.runs} run(s); uncut ${uncut.requests}`,
			);
			rows.push({
				case: '4 Requests per run',
				figure: `a ${duration} s run cut by a 524 at 100 s: requests more than the same run uncut; runs on the platform`,
				measured: `${cut.requests} requests, ${cut.runs} run`,
				baseline: `${uncut.requests} requests uncut`,
				value: cut.requests - uncut.requests,
				target: '≤ 3 more, 1 run',
				met: cut.requests - uncut.requests <= 3 && cut.runs === 1,
			});
		}

		// 100 executions of one agent (5 s runs), one after another, in a running n8n of each line.
		for (const line of selectedLines())
			rows.push(await executionsInN8n(line, emu, options.quick ? 20 : 100, scale));
	} finally {
		Object.assign(POLLING, saved.polling);
		Object.assign(RECOVERY, saved.recovery);
		await emu.stop();
	}
	return rows;
}

/**
 * A workflow Webhook → Agent Platform (Agent → Execute, Wait for Completion) active in `n8n start`
 * of `line`, its credential at the default Requests per Second, called `count` times one after
 * another; what the emulator received for them, per execution. Each webhook call answers when the
 * execution has ended (Respond: When Last Node Finishes), so its time is the execution's time.
 */
async function executionsInN8n(
	line: N8nLine,
	emu: PlatformEmulator,
	count: number,
	scale: number,
): Promise<BenchRow> {
	const credential = { id: fixtureId('credBenchPolling'), name: 'Agent Platform (bench)' };
	const workflow = loadWorkflow('queue-execute', {
		AGENT_ID: String(TEXT_AGENT),
		CREDENTIAL_ID: credential.id,
		CREDENTIAL_NAME: credential.name,
	});
	const n8n = await N8nInstance.withPackage(line);
	const times: number[] = [];
	let requests: number;
	let runs: number;
	let took: number;
	try {
		await n8n.importCredentials([
			agentPlatformCredential(emu, { ...credential, requestsPerSecond: null }),
		]);
		await n8n.importWorkflows([workflow]);
		await n8n.start();
		await n8n.setupOwnerAndApiKey();
		await n8n.activate(workflow.id);
		emu.configureAgent(TEXT_AGENT, { executionSeconds: 5 });
		emu.clearRequests();
		const before = emu.runCount;
		const started = Date.now();
		for (let i = 0; i < count; i++) {
			const callStarted = Date.now();
			const answer = await n8n.postWebhook('queue-execute', answers(), {
				registeredWithinMs: 30_000,
			});
			times.push(Date.now() - callStarted);
			const item = answer.body as { status?: string };
			if (answer.status !== 200 || item.status !== 'succeeded')
				throw new Error(
					`execution ${i + 1} of ${count} in n8n ${line.version} did not succeed: HTTP ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`,
				);
		}
		took = Date.now() - started;
		requests = emu.requests.length;
		runs = emu.runCount - before;
	} finally {
		await n8n.dispose();
	}
	const floor = await floorOnce(emu, 5);
	const perExecution = requests / count;
	progress(
		`requests per run: n8n ${line.version}, ${count} executions: ${requests} requests, ${runs} runs, ${seconds(took / 1000)}`,
	);
	return {
		case: '4 Requests per run',
		figure: `n8n ${line.version}: ${count} executions of Webhook → Agent → Execute (one agent, 5 s runs, time scale ${scale}), one after another: requests per execution ÷ the floor`,
		measured: `${perExecution.toFixed(2)} requests, ${seconds(took / count / 1000)} each (median ${seconds(median(times) / 1000)})`,
		baseline: `${floor.requests} request, ${seconds(floor.tookMs / 1000)}`,
		value: perExecution / floor.requests,
		target: '≤ 1.1',
		met: perExecution <= 1.1 && runs === count,
		note: `a real n8n (\`n8n start\`), the credential at its default Requests per Second (1); ${requests} requests and ${runs} runs on the emulator for ${count} executions; the first execution of the process also reads the agent's definition; time per execution is the webhook's answer (it answers when the execution ends)`,
	};
}
