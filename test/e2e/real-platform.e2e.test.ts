/**
 * The nodes on the production platform's terms (docs/platform-assumptions.md), inside the run's
 * n8n 2.x with the packed package, against the emulator behaving as production does: a
 * History with a system message runs as the leading developer message; Execute with Model, Tools
 * and Temperature at Agent Default; a 50 MB upload through the signed-URL flow (sha256 checked on
 * the storage host); a failed streamed Chat Completion on the error output; Wait for Completion
 * through a 150 s run (time-scaled) behind a gateway that answers 524 after 100 s: one run.
 */
import { createHash, randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { type PlatformEmulator } from '../../dev/emulator';
import {
	type N8nInstance,
	agentPlatformCredential,
	fixtureId,
	lastNodeItems,
	nodeItems,
} from '../../dev/n8n/harness';
import { loadWorkflow, describeEachLine } from './fixtures';
import { useLineN8n } from './lineN8n';
import { CHAT_AGENT } from '../../dev/emulator';

const API_KEY = 'e2e-real-platform-key-51c0';
const WORKSPACE_ID = '42';
const CREDENTIAL = { id: fixtureId('credRealPlat'), name: 'Agent Platform (real platform)' };
const UPLOAD_BYTES = 50 * 1024 * 1024;
const WORKFLOWS = {
	system: fixtureId('rpSystemMsg'),
	defaults: fixtureId('rpDefaults'),
	upload: fixtureId('rpUpload50'),
	failedStream: fixtureId('rpFailStream'),
	gateway: fixtureId('rpGateway524'),
};

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** The file's five workflows, the upload reading the file at `largeFile`. */
function workflows(largeFile: string) {
	const credential = { CREDENTIAL_ID: CREDENTIAL.id, CREDENTIAL_NAME: CREDENTIAL.name };
	const agent = { __rl: true, mode: 'id', value: String(CHAT_AGENT) };
	const node = (
		id: string,
		name: string,
		parameters: Record<string, unknown>,
		template = 'agent-platform-node',
	) =>
		loadWorkflow(template, {
			...credential,
			WORKFLOW_ID: id,
			WORKFLOW_NAME: name,
			PARAMETERS: parameters,
		});
	return [
		node(WORKFLOWS.system, 'History with a system message', {
			resource: 'agent',
			operation: 'execute',
			agentId: agent,
			message: 'Hello from n8n',
			history: { messages: [{ role: 'system', content: 'Answer in one line.' }] },
		}),
		node(WORKFLOWS.defaults, 'Execute at Agent Default', {
			resource: 'agent',
			operation: 'execute',
			agentId: agent,
			message: 'Defaults, please',
			model: '',
			tools: '',
			temperature: '',
		}),
		loadWorkflow('upload-file', {
			...credential,
			WORKFLOW_ID: WORKFLOWS.upload,
			FILE_PATH: largeFile,
		}),
		node(
			WORKFLOWS.failedStream,
			'Failed streamed Chat Completion',
			{
				resource: 'agent',
				operation: 'chatCompletion',
				agentId: agent,
				message: 'What is an otter?',
				stream: true,
			},
			'error-output-node',
		),
		node(WORKFLOWS.gateway, 'Wait for Completion behind a 524 gateway', {
			resource: 'agent',
			operation: 'execute',
			agentId: agent,
			message: 'A long job',
			responseMode: 'wait',
		}),
	];
}

describeEachLine()("n8n $line ($version): the real platform's terms", (line) => {
	let emu: PlatformEmulator;
	let n8n: N8nInstance;
	let id: (fixtureId: string) => string;
	const sample = randomBytes(UPLOAD_BYTES);

	useLineN8n(
		line,
		{
			tag: 'real-platform',
			// 10 virtual seconds per real second: the 150 s run lasts 15 s.
			emulator: {
				apiKey: API_KEY,
				workspaceId: WORKSPACE_ID,
				timeScale: 10,
				executionSeconds: 10,
			},
			credentials: (platform) => [agentPlatformCredential(platform, CREDENTIAL)],
			workflows: async (_, files) => {
				// Read/Write Files may only read where the n8n's N8N_RESTRICT_FILE_ACCESS_TO allows
				await writeFile(join(files, 'large.pdf'), sample);
				return workflows(join(files, 'large.pdf'));
			},
		},
		(setUp) => ({ emu, n8n, id } = { ...setUp, id: setUp.fixture.id }),
	);

	beforeEach(() => {
		emu.resetFaults();
		emu.clearRequests();
	});

	const executeBody = () =>
		emu.requests.find((r) => r.method === 'POST' && r.path.endsWith('/execute'))!.body as Record<
			string,
			unknown
		>;

	test('a History with a system message runs as the leading developer message', async () => {
		const [item] = lastNodeItems((await n8n.executeOk(id(WORKFLOWS.system))).run);
		expect(item.status).toBe('succeeded');
		expect(executeBody().messages).toEqual([
			{ role: 'developer', content: 'Answer in one line.' },
			{ role: 'user', content: 'Hello from n8n' },
		]);
	});

	test("Execute with every setting at Agent Default sends none of them and runs with the agent's own", async () => {
		const [item] = lastNodeItems((await n8n.executeOk(id(WORKFLOWS.defaults))).run);
		expect(item.status).toBe('succeeded');
		expect(item.generated_files).toEqual([]);
		const body = executeBody();
		for (const name of ['model', 'tools', 'temperature']) expect(body).not.toHaveProperty(name);
		expect(emu.state.runs.get(Number(item.id))!.answers.temperature).toBe('1');
	});

	test('a 50 MB upload goes sign → PUT to the storage host (sha256 checked there, no key) → register', async () => {
		const [file] = nodeItems(
			(await n8n.executeOk(id(WORKFLOWS.upload), { timeoutMs: 300_000 })).run,
			'Upload',
		);
		expect(file).toMatchObject({ object: 'file', filename: 'large.pdf', bytes: UPLOAD_BYTES });
		expect(emu.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
			'POST /v2/files/sign',
			'POST /v2/files/register',
		]);
		expect(emu.storageRequests).toHaveLength(1);
		const [put] = emu.storageRequests;
		expect(put).toMatchObject({
			method: 'PUT',
			status: 200,
			bytes: UPLOAD_BYTES,
			sha256: sha256(sample),
		});
		expect(put.headers.authorization).toBeUndefined();
		expect(put.headers['x-workspace-id']).toBeUndefined();
		expect(put.headers['content-type']).toBe('application/pdf');
		expect(emu.state.files.get(Number(file.id))!.sha256).toBe(sha256(sample));
	});

	test("a failed streamed Chat Completion goes to the error output with the platform's words", async () => {
		emu.configureAgent(CHAT_AGENT, { fail: 'The model is overloaded.' });
		try {
			const { run } = await n8n.executeOk(id(WORKFLOWS.failedStream));
			expect(run.data.resultData.runData.Succeeded).toBeUndefined();
			const [failed] = nodeItems(run, 'Failed');
			expect(JSON.stringify(failed)).toContain(
				'The platform answered with an error: The model is overloaded.',
			);
		} finally {
			emu.configureAgent(CHAT_AGENT, { fail: false });
		}
	});

	test('Wait for Completion survives a gateway that answers 524 after 100 s: one run, the whole output', async () => {
		emu.setFaults({ gatewayTimeoutSeconds: 100 });
		emu.configureAgent(CHAT_AGENT, {
			executionSeconds: 150,
			output: 'All of the long answer, start to end.',
		});
		try {
			const before = emu.runCount;
			const [item] = lastNodeItems(
				(await n8n.executeOk(id(WORKFLOWS.gateway), { timeoutMs: 120_000 })).run,
			);
			expect(emu.runCount).toBe(before + 1);
			expect(emu.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
			expect(item).toMatchObject({
				status: 'succeeded',
				output: 'All of the long answer, start to end.',
			});
		} finally {
			emu.configureAgent(CHAT_AGENT, { executionSeconds: 10, output: undefined });
		}
	});
});
