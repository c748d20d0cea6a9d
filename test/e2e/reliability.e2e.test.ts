/**
 * Reliability and secrets in real n8n 1.x and 2.x (the packed package installed as n8n's community
 * installer does), against emulators whose faults are switched on:
 *
 * - Continue On Fail and the error output: 10 items of which 3 are bad give 7 results and 3 error
 *   items, each paired with its input item.
 * - A run of failing operations (404, a rejected key, 503, an HTML page, malformed JSON, a reset
 *   connection, bad input, a failed agent run, and a last one that stops the workflow): each says
 *   what went wrong in plain words, and the API key appears nowhere: not in the run n8n prints,
 *   its log, the bytes of its database (and the execution rows read through the sqlite3 module of
 *   the n8n install), nor the JSON n8n's public API returns for the execution.
 *
 * An n8n of the file's own (the last test stops it to read its files), its credentials and
 * workflows made through its API: the workflows run in it as the editor runs them, and its public
 * API reads what it saved.
 * Run: npx jest --selectProjects e2e --runInBand --runTestsByPath test/e2e/reliability.e2e.test.ts
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { startEmulator, type EmulatorFaults, type PlatformEmulator } from '../../dev/emulator';
import {
	type N8nInstance,
	NODE24_BIN,
	agentPlatformCredential,
	fixtureId,
	log,
	n8nInstallDir,
	run,
	type ExecuteResult,
	type N8nRun,
} from '../../dev/n8n/harness';
import { loadWorkflow, describeEachLine } from './fixtures';
import { n8nOfLine, type LineN8n } from './lineN8n';
import { FAILING_AGENT } from '../../dev/emulator';

/** The key every credential of the run uses: it must not show up anywhere. */
const SECRET_KEY = 'sk-live-7Hq2ZpX9rW4mV8nB3kJ6tY1c';
const WRONG_KEY = 'sk-wrong-4Fd8Ls2Pq7Xz1Vb6Nm3Kt9Gh';
const WORKSPACE_ID = '42';

const WORKFLOWS = { items: fixtureId('reliabilityItems'), secrets: fixtureId('secretsFailing') };
/** The 10 agent IDs: 3 bad ones, at items 3, 6 and 9 (0-based 2, 5, 8). */
const IDS = [1, 2, 'abc', 3, 4, 9999, 6, 7, '', 8];
const BAD = new Set([2, 5, 8]);

const FAULTY = {
	SERVER_ERROR: { serverErrorRate: 1, serverErrorStatus: 503 },
	HTML_PAGE: { htmlErrorRate: 1 },
	MALFORMED: { malformedJsonRate: 1 },
	RESET: { resetConnectionRate: 1 },
} satisfies Record<string, Partial<EmulatorFaults>>;
type Faulty = keyof typeof FAULTY;

/** What each failing node of the secrets workflow must say. */
const SAID: Record<string, string> = {
	'Not Found': 'The platform could not find agent 9999',
	'Wrong Key': 'The platform rejected the API key',
	'Server Error': 'The platform had a problem on its side (HTTP 503)',
	'HTML Page': 'The platform had a problem on its side (HTTP 502)',
	'Malformed JSON': "The platform's answer (HTTP 200) is not valid JSON",
	'Connection Reset': 'The connection to the platform broke before it answered',
	'Bad Input': 'The Memory is empty (item 1)',
};

/** Every file under a folder, with its bytes (n8n's database, its WAL, its config...). */
function filesUnder(folder: string): Array<{ path: string; bytes: Buffer }> {
	const out: Array<{ path: string; bytes: Buffer }> = [];
	const walk = (dir: string) => {
		for (const entry of readdirSync(dir)) {
			const path = join(dir, entry);
			const stat = statSync(path);
			if (stat.isDirectory()) {
				if (entry !== 'node_modules') walk(path); // the installed package itself is not n8n's data
			} else out.push({ path, bytes: readFileSync(path) });
		}
	};
	walk(folder);
	return out;
}

describeEachLine()('n8n $line ($version): reliability and secrets', (line) => {
	let emu: PlatformEmulator;
	const faulty = {} as Record<Faulty, PlatformEmulator>;
	let n8n: N8nInstance;
	let fixture: LineN8n | undefined;
	let items: ExecuteResult;
	let secrets: ExecuteResult;
	let started = Date.now();

	beforeAll(async () => {
		started = Date.now();
		emu = await startEmulator({
			apiKey: SECRET_KEY,
			workspaceId: WORKSPACE_ID,
			timeScale: 50,
			quiet: true,
		});
		for (const [name, faults] of Object.entries(FAULTY) as Array<
			[Faulty, Partial<EmulatorFaults>]
		>) {
			faulty[name] = await startEmulator({
				apiKey: SECRET_KEY,
				workspaceId: WORKSPACE_ID,
				faults,
				quiet: true,
			});
		}
		const credential = (label: string, platform: PlatformEmulator, apiKey = SECRET_KEY) =>
			agentPlatformCredential(
				{ url: platform.url, apiKey, workspaceId: WORKSPACE_ID },
				{ id: fixtureId(`cred${label}`), name: `Agent Platform (${label})` },
			);
		const credentials = {
			MAIN: credential('Main', emu),
			WRONG_KEY: credential('WrongKey', emu, WRONG_KEY),
			...Object.fromEntries(
				(Object.keys(FAULTY) as Faulty[]).map((name) => [
					name,
					credential(name.replace('_', ''), faulty[name]),
				]),
			),
		} as Record<string, ReturnType<typeof credential>>;
		const placeholders = Object.fromEntries(
			Object.entries(credentials).flatMap(([key, c]) => [
				[`CRED_${key}_ID`, c.id],
				[`CRED_${key}_NAME`, c.name],
			]),
		);

		// an n8n of the file's own: the last test stops it and reads every byte it keeps
		fixture = await n8nOfLine(line, {
			tag: 'reliability',
			fresh: true,
			credentials: Object.values(credentials),
			workflows: [
				loadWorkflow('reliability-continue-on-fail', {
					WORKFLOW_ID: WORKFLOWS.items,
					IDS_JSON: JSON.stringify({ ids: IDS }),
					CREDENTIAL_ID: credentials.MAIN.id,
					CREDENTIAL_NAME: credentials.MAIN.name,
				}),
				loadWorkflow('secrets-failing-operations', {
					WORKFLOW_ID: WORKFLOWS.secrets,
					FAILING_AGENT_ID: String(FAILING_AGENT),
					...placeholders,
				}),
			],
		});
		n8n = fixture.n8n;
		// the runs go through it as the editor's; the tests below use its APIs
		items = await n8n.executeOk(fixture.id(WORKFLOWS.items));
		secrets = await n8n.execute(fixture.id(WORKFLOWS.secrets));
		log(
			`n8n ${line.version}: reliability workflows ran in ${((Date.now() - started) / 1000).toFixed(1)} s`,
		);
	});

	afterAll(async () => {
		await fixture?.release();
		await emu?.stop();
		for (const platform of Object.values(faulty)) await platform?.stop();
		log(
			`n8n ${line.version}: reliability suite took ${((Date.now() - started) / 1000).toFixed(1)} s`,
		);
	});

	/** Output items of a node with their pairedItem, per output. */
	function outputsOf(result: N8nRun, nodeName: string) {
		const task = result.data.resultData.runData[nodeName]?.[0];
		expect(task).toBeDefined();
		return (task!.data?.main ?? []).map((output) =>
			(output ?? []).map((item) => ({
				json: item.json,
				pairedItem: (item as { pairedItem?: unknown }).pairedItem,
			})),
		);
	}
	const goodIndexes = IDS.map((_, i) => i).filter((i) => !BAD.has(i));
	const expectedErrors = [
		'The agent "abc" is not a valid ID (item 3)',
		'The platform could not find agent 9999',
		'The agent is empty (item 9)',
	];

	test('Continue On Fail: 10 items, 3 bad → 7 agents and 3 error items, in order, each paired with its input item', () => {
		const [main, ...others] = outputsOf(items.run, 'Continue On Fail');
		expect(others.every((o) => o.length === 0)).toBe(true);
		expect(main).toHaveLength(10);
		expect(main.map((item) => item.pairedItem)).toEqual(IDS.map((_, item) => ({ item })));
		expect(main.filter((_, i) => !BAD.has(i)).map((item) => item.json.id)).toEqual(
			goodIndexes.map((i) => IDS[i]),
		);
		expect(main.filter((_, i) => BAD.has(i)).map((item) => item.json.error)).toEqual(
			expectedErrors,
		);
		for (const i of BAD)
			expect(Object.keys(main[i].json).every((key) => ['error', 'details'].includes(key))).toBe(
				true,
			);
	});

	test('the error output: the 7 agents on the main output, the 3 failed items on the error output, each paired with its input item', () => {
		const [found, failed] = outputsOf(items.run, 'Error Output');
		expect(found.map((item) => [item.json.id, item.pairedItem])).toEqual(
			goodIndexes.map((i) => [IDS[i], { item: i }]),
		);
		expect(failed.map((item) => [item.json.error, item.pairedItem])).toEqual(
			[...BAD].map((i, n) => [expectedErrors[n], { item: i }]),
		);
		// and the next nodes got them
		expect(outputsOf(items.run, 'Agents Found')[0]).toHaveLength(7);
		expect(outputsOf(items.run, 'Failed Items')[0]).toHaveLength(3);
	});

	test('a run of failing operations: each node says what went wrong in plain words, and the last one stops the workflow', () => {
		expect(secrets.failed).toBe(true);
		for (const [nodeName, message] of Object.entries(SAID)) {
			const [[item]] = outputsOf(secrets.run, nodeName);
			expect({ nodeName, error: item.json.error }).toEqual({ nodeName, error: message });
		}
		const [[failedRun]] = outputsOf(secrets.run, 'Failed Run');
		expect(failedRun.json.error).toMatch(/^The agent run \d+ ended with status "failed"/);
		const stopped = secrets.run.data.resultData.error;
		expect(stopped?.message).toBe('The platform could not find agent 9998');
		// the faulty platforms were really asked (once each: these are POSTs)
		for (const name of ['SERVER_ERROR', 'HTML_PAGE', 'MALFORMED', 'RESET'] as Faulty[]) {
			expect({
				name,
				posts: faulty[name].requests.filter((r) => r.method === 'POST').length,
			}).toEqual({ name, posts: 1 });
		}
	});

	const credentialChecks: unknown[] = [];

	test("the credential's Test button: accepted, then a wrong key, a wrong workspace and a wrong address in words", async () => {
		const main = {
			id: fixture!.id(fixtureId('credMain')),
			name: 'Agent Platform (Main)',
			type: 'agentPlatformApi',
		};
		const check = async (data: Record<string, string>) => {
			const result = await n8n.rest<{ status: string; message: string }>(
				'POST',
				'/credentials/test',
				{
					credentials: {
						...main,
						data: { baseUrl: emu.url, apiKey: SECRET_KEY, workspaceId: WORKSPACE_ID, ...data },
					},
				},
			);
			credentialChecks.push(result);
			return result;
		};
		const before = emu.requests.length;
		expect(await check({})).toEqual({ status: 'OK', message: 'Connection successful' });
		// the credential's authenticate sent both headers, the key trimmed of pasted spaces
		expect(await check({ apiKey: ` ${SECRET_KEY} ` })).toEqual({
			status: 'OK',
			message: 'Connection successful',
		});
		const tests = emu.requests.slice(before);
		expect(
			tests.map((r) => [r.path, r.headers.authorization, r.headers['x-workspace-id']]),
		).toEqual([
			['/agents', `Bearer ${SECRET_KEY}`, WORKSPACE_ID],
			['/agents', `Bearer ${SECRET_KEY}`, WORKSPACE_ID],
		]);
		// The nodes' own credential test (testedBy): the same plain words on both lines, for every
		// failure, connection failures included (no raw ECONNREFUSED or ERR_INVALID_URL).
		expect(await check({ apiKey: WRONG_KEY })).toEqual({
			status: 'Error',
			message: expect.stringMatching(/^The platform rejected the API key/),
		});
		expect(await check({ workspaceId: '999' })).toEqual({
			status: 'Error',
			message: expect.stringMatching(/refused the Workspace ID/),
		});
		expect(await check({ baseUrl: `${emu.url}/no-api-here` })).toEqual({
			status: 'Error',
			message: expect.stringMatching(
				/the Agent Platform API is not there .*the production platform is https:\/\/api\.tess\.im/,
			),
		});
		expect(await check({ baseUrl: 'http://127.0.0.1:9' })).toEqual({
			status: 'Error',
			message: expect.stringMatching(/^Nothing answered at 127\.0\.0\.1:9: check the Base URL/),
		});
		expect(await check({ baseUrl: '127.0.0.1:9' })).toEqual({
			status: 'Error',
			message: expect.stringMatching(/must start with https:\/\/ \(or http:\/\/\)/),
		});
	});

	test('the API key appears nowhere: run output, n8n log, database bytes, stored execution rows, public API, credential tests', async () => {
		const places: Array<{ where: string; text: string }> = [];
		places.push({ where: 'credential test answers', text: JSON.stringify(credentialChecks) });
		for (const result of [items, secrets]) {
			places.push({ where: 'the run (saved execution)', text: JSON.stringify(result.run) });
			places.push({ where: "n8n's log during the run", text: result.stdout + result.stderr });
		}
		// The public API's copy of the stored executions (n8n started after the runs).
		const stored = [
			...(await n8n.getExecutions(fixture!.id(WORKFLOWS.items))),
			...(await n8n.getExecutions(fixture!.id(WORKFLOWS.secrets))),
		];
		expect(stored.length).toBeGreaterThanOrEqual(2);
		places.push({ where: 'public API /executions?includeData=true', text: JSON.stringify(stored) });
		places.push({ where: 'n8n start log', text: n8n.logText() });
		await n8n.stop();
		// Every byte n8n keeps: its database (and WAL), config, binary data.
		const dataFiles = filesUnder(join(n8n.userFolder, '.n8n'));
		const database = dataFiles.find((f) => /database\.sqlite$/.test(f.path));
		expect(database).toBeDefined();
		for (const file of dataFiles)
			places.push({ where: file.path, text: file.bytes.toString('latin1') });
		// The stored execution rows, read through the sqlite3 module of the n8n install.
		const sqlite3 = join(n8nInstallDir(line), 'node_modules', 'sqlite3');
		expect(existsSync(sqlite3)).toBe(true);
		const query = [
			`const s = require(${JSON.stringify(sqlite3)});`,
			`const db = new s.Database(${JSON.stringify(database!.path)}, s.OPEN_READONLY);`,
			`db.all('SELECT executionId, data, workflowData FROM execution_data', (e, rows) => { if (e) throw e;`,
			`  db.all('SELECT type, data FROM credentials_entity', (e2, credentials) => { if (e2) throw e2;`,
			`    process.stdout.write(JSON.stringify({ rows, credentials })); db.close(); }); });`,
		].join('\n');
		const dump = JSON.parse(
			(await run(NODE24_BIN, ['-e', query], { what: 'read n8n database' })).stdout,
		) as {
			rows: Array<{ data: string }>;
			credentials: Array<{ type: string; data: string }>;
		};
		expect(dump.rows.length).toBeGreaterThanOrEqual(2);
		places.push({ where: 'execution_data rows', text: JSON.stringify(dump.rows) });
		// n8n keeps the credentials themselves, encrypted: there, but not readable.
		expect(dump.credentials.filter((c) => c.type === 'agentPlatformApi').length).toBe(6);
		places.push({ where: 'credentials_entity rows', text: JSON.stringify(dump.credentials) });

		// The scan would prove nothing if the failures were not there: each place that holds the
		// executions holds their messages.
		for (const where of ['public API /executions?includeData=true', 'execution_data rows']) {
			const text = places.find((p) => p.where === where)!.text;
			for (const message of Object.values(SAID))
				expect({ where, message, found: text.includes(message) }).toEqual({
					where,
					message,
					found: true,
				});
		}
		expect(dataFiles.some((f) => f.bytes.includes(SAID['Connection Reset']))).toBe(true);

		for (const key of [SECRET_KEY, WRONG_KEY]) {
			const leaks = places.filter((p) => p.text.includes(key)).map((p) => p.where);
			expect({ key, leaks }).toEqual({ key, leaks: [] });
		}
	});
});
