#!/usr/bin/env node
/**
 * npm start: try the nodes in a real n8n, against the local platform emulator.
 *
 *   1. builds and packs the package;
 *   2. makes sure n8n is installed in the cache (first time: 4-6 minutes, with progress);
 *   3. starts the emulator on 127.0.0.1:8787 (fixed dev key and workspace);
 *   4. installs the package into a real n8n as its community installer would, adds the
 *      credentials "Agent Platform (local emulator)" and "OpenAI (local emulator, scripted
 *      model)", imports the example workflows of examples/ (those n8n does not have yet),
 *      starts n8n on 127.0.0.1:5678 and sets up the owner account;
 *   5. prints how to sign in; Ctrl-C stops both.
 *
 * `npm start -- --smoke` (CI runs it): the same start in a new empty folder on free ports, then
 * signs in, tests the credential, runs the stream example through its webhook, and stops both,
 * exiting 0 only when every step worked.
 *
 * Environment: N8N_LINE=1 (n8n 1.x; default 2.x), N8N_PORT (5678), EMULATOR_PORT (8787),
 * N8N_DEV_FOLDER (n8n's data; default .tmp/n8n-dev-<line>, kept between runs),
 * FRESH=1 (start from an empty n8n), VERBOSE=1 (show n8n's and the emulator's logs here).
 */
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

import {
	DEV_PLATFORM,
	DEV_SIGN_IN,
	EMULATOR_CLI,
	EXAMPLE_CREDENTIALS,
	N8nInstance,
	REPO,
	agentPlatformCredential,
	ensureN8n,
	exampleNames,
	freePort,
	lineByName,
	loadExample,
	log,
	openAiEmulatorCredential,
	packPackage,
	portIsFree,
	setLogPrefix,
	TS_NODE_BIN,
} from './dev-tools.mjs';

setLogPrefix('start');

const DEV = {
	...DEV_PLATFORM,
	owner: DEV_SIGN_IN,
	// The example workflows (examples/*.json) reference these credentials by id.
	credential: EXAMPLE_CREDENTIALS.agentPlatform,
	openAiCredential: EXAMPLE_CREDENTIALS.openAi,
	/** The chat agent whose chat-completions endpoint serves as the AI Agent example's model. */
	chatAgentId: 1,
};

const smoke = process.argv.includes('--smoke');
const line = lineByName(process.env.N8N_LINE || '2');
const n8nPort = smoke ? await freePort() : portFromEnv('N8N_PORT', 5678);
const emulatorPort = smoke ? await freePort() : portFromEnv('EMULATOR_PORT', 8787);
const verbose = process.env.VERBOSE === '1';
const folder = smoke
	? mkdtempSync(join(tmpdir(), 'agent-platform-smoke-'))
	: process.env.N8N_DEV_FOLDER || join(REPO, '.tmp', `n8n-dev-${line.line}`);

let n8n;
let emulator;
let stopping = false;

function portFromEnv(name, fallback) {
	const raw = process.env[name];
	if (raw === undefined || raw === '') return fallback;
	const port = Number(raw);
	if (!Number.isInteger(port) || port < 1 || port > 65535)
		fail(`${name}=${raw} is not a port number`);
	return port;
}

function fail(message) {
	process.stderr.write(`\n[start] ${message}\n`);
	process.exit(1);
}

function seconds(since) {
	return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

/** Starts dev/emulator/cli.ts and resolves its base URL (its first output line says it). */
function startEmulator(logFile) {
	return new Promise((resolve, reject) => {
		const child = spawn(
			process.execPath,
			[
				TS_NODE_BIN,
				'--transpile-only',
				EMULATOR_CLI,
				'--port',
				String(emulatorPort),
				'--host',
				'127.0.0.1',
				'--api-key',
				DEV.apiKey,
				'--workspace-id',
				DEV.workspaceId,
			],
			{ cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
		);
		const out = verbose ? null : createWriteStream(logFile, { flags: 'a' });
		const write = (chunk) =>
			verbose ? process.stderr.write(prefixLines('emulator', chunk)) : out.write(chunk);
		let pending = '';
		let url;
		child.stdout.on('data', (chunk) => {
			write(chunk);
			if (url) return;
			pending += chunk.toString();
			const match = /Base URL:\s*(\S+)/.exec(pending);
			if (match) {
				url = match[1];
				resolve({ child, url, exited: exitPromise });
			}
		});
		child.stderr.on('data', (chunk) => {
			write(chunk);
			if (!url) pending += chunk.toString();
		});
		const exitPromise = new Promise((r) => child.on('exit', (code, signal) => r(code ?? signal)));
		child.on('error', reject);
		exitPromise.then((code) => {
			if (!url)
				reject(new Error(`the emulator exited (${code}) before it printed its URL:\n${pending}`));
		});
		setTimeout(() => {
			if (!url) {
				child.kill('SIGKILL');
				reject(new Error(`the emulator did not print its URL within 60 s:\n${pending}`));
			}
		}, 60_000).unref();
	});
}

function prefixLines(name, chunk) {
	return chunk
		.toString()
		.split('\n')
		.map((l, i, all) => (i === all.length - 1 && l === '' ? '' : `[${name}] ${l}\n`))
		.join('');
}

async function stopEmulator() {
	if (!emulator || emulator.child.exitCode !== null || emulator.child.signalCode !== null) return;
	emulator.child.kill('SIGTERM');
	const timer = setTimeout(() => emulator.child.kill('SIGKILL'), 10_000);
	await emulator.exited;
	clearTimeout(timer);
}

async function shutdown(reason, code = 0) {
	if (stopping) return;
	stopping = true;
	log(`${reason}: stopping n8n and the emulator`);
	try {
		await n8n?.stop();
	} catch (e) {
		log(`n8n did not stop cleanly: ${e.message}`);
	}
	await stopEmulator();
	log('stopped');
	process.exit(code);
}

/** Checks that the editor and the emulator answer as a browser and the node would. */
async function selfCheck(emulatorUrl) {
	const editor = await fetch(`${n8n.baseUrl}/`, { signal: AbortSignal.timeout(10_000) });
	const html = await editor.text();
	if (editor.status !== 200 || !/<html/i.test(html))
		throw new Error(`the editor answered HTTP ${editor.status}`);
	const agents = await fetch(`${emulatorUrl}/agents?per_page=1`, {
		headers: { authorization: `Bearer ${DEV.apiKey}`, 'x-workspace-id': DEV.workspaceId },
		signal: AbortSignal.timeout(10_000),
	});
	const body = await agents.json();
	if (agents.status !== 200)
		throw new Error(`the emulator answered HTTP ${agents.status}: ${JSON.stringify(body)}`);
	return body.total ?? body.data?.length;
}

async function main() {
	const begun = Date.now();
	for (const [name, port] of [
		['N8N_PORT', n8nPort],
		['EMULATOR_PORT', emulatorPort],
	]) {
		if (!(await portIsFree(port))) {
			fail(
				`port ${port} on 127.0.0.1 is in use (another npm start?). Stop that, or choose another: ${name}=<port> npm start`,
			);
		}
	}

	log('building and packing the package');
	const tarball = await packPackage();
	await ensureN8n(line);

	if (process.env.FRESH === '1') rmSync(folder, { recursive: true, force: true });
	mkdirSync(folder, { recursive: true });
	const emulatorLog = join(folder, 'emulator.log');
	log(`starting the emulator on 127.0.0.1:${emulatorPort}`);
	emulator = await startEmulator(emulatorLog);
	emulator.exited.then((code) => {
		if (!stopping) {
			log(`the emulator stopped unexpectedly (${code}); see ${emulatorLog}`);
			shutdown('emulator gone', 1);
		}
	});

	n8n = await N8nInstance.create(line, { folder, port: n8nPort });
	const firstRun = !existsSync(join(n8n.userFolder, '.n8n', 'database.sqlite'));
	log(
		`installing the package into n8n ${line.version} (${relative(process.cwd(), folder) || folder})`,
	);
	await n8n.installPackage(tarball);
	const platform = { url: emulator.url, apiKey: DEV.apiKey, workspaceId: DEV.workspaceId };
	await n8n.importCredentials([
		agentPlatformCredential(platform, DEV.credential),
		openAiEmulatorCredential(platform, DEV.chatAgentId, DEV.openAiCredential),
	]);
	const examples = await missingExamples(firstRun);
	if (examples.length) {
		log(`importing ${examples.length} example workflow(s) from examples/`);
		await n8n.importWorkflows(examples);
	}

	log(`starting n8n ${line.version} on 127.0.0.1:${n8nPort}`);
	if (verbose) log(`n8n log: ${n8n.logFile}`);
	const tail = verbose ? followLog(n8n.logFile) : undefined;
	try {
		await n8n.start({ timeoutMs: 180_000 });
	} catch (e) {
		tail?.kill();
		await stopEmulator();
		throw e;
	}
	n8n.serverExited.then(() => {
		if (!stopping) {
			log(`n8n stopped unexpectedly\n${n8n.logTail(40)}`);
			shutdown('n8n gone', 1);
		}
	});

	const settings = await n8n.rest('GET', '/settings');
	if (settings.userManagement?.showSetupOnFirstLoad !== false) {
		await n8n.rest('POST', '/owner/setup', DEV.owner);
	}
	const agentCount = await selfCheck(emulator.url);

	const editorUrl = `http://127.0.0.1:${n8nPort}`;
	const lines = [
		'',
		`  n8n ${line.version} with n8n-nodes-agent-platform is running (ready in ${seconds(begun)})`,
		'',
		`  Editor:     ${editorUrl}`,
		`  Sign in:    ${DEV.owner.email}  /  ${DEV.owner.password}`,
		'',
		`  Emulator:   ${emulator.url}   (${agentCount} agents)`,
		`  API key:    ${DEV.apiKey}`,
		`  Workspace:  ${DEV.workspaceId}`,
		`  Credential: "${DEV.credential.name}" (already set up in n8n)`,
		`  Examples:   ${exampleNames().length} workflows named "Example: …" (examples/*.json)` +
			(examplesImported ? `, ${examplesImported} imported now` : ', already imported'),
		`  AI Agent:   credential "${DEV.openAiCredential.name}" (the emulator's scripted tool-calling model)`,
		'',
		`  Logs:       ${n8n.logFile}`,
		`              ${verbose ? '(emulator output is shown here)' : emulatorLog}`,
		smoke
			? `  Data:       ${folder}  (removed when the smoke test passes)`
			: `  Data:       ${folder}  (kept; FRESH=1 npm start starts empty)`,
		'',
		smoke
			? '  Smoke test: signing in, testing the credential, running one example, then stopping.'
			: '  Press Ctrl-C to stop n8n and the emulator.',
		'',
	].filter((l) => l !== null);
	process.stdout.write(`${lines.join('\n')}\n`);
	if (smoke) {
		await smokeTest();
		rmSync(folder, { recursive: true, force: true });
		await shutdown('smoke test passed', 0);
	}
}

/**
 * `--smoke`: what a newcomer does first, checked. Signs in with the printed account, presses the
 * credential's Test button, and runs the stream example through its webhook.
 */
async function smokeTest() {
	const step = async (what, fn) => {
		const since = Date.now();
		try {
			const said = await fn();
			log(`smoke: ${what}: ok${said ? ` (${said})` : ''} in ${seconds(since)}`);
		} catch (e) {
			throw new Error(`smoke: ${what} failed: ${e instanceof Error ? e.message : String(e)}`);
		}
	};
	await step('sign in with the printed e-mail and password', async () => {
		await n8n.login(DEV.owner);
	});
	await step(`test the credential "${DEV.credential.name}"`, async () => {
		const stored = await n8n.rest('GET', `/credentials/${DEV.credential.id}?includeData=true`);
		const result = await n8n.rest('POST', '/credentials/test', { credentials: stored });
		if (result.status !== 'OK') throw new Error(`n8n said ${JSON.stringify(result)}`);
		return result.message;
	});
	await step('run the example "stream an agent\'s answer to a webhook caller"', async () => {
		const scopes = await n8n.rest('GET', '/api-keys/scopes');
		const key = await n8n.rest('POST', '/api-keys', {
			label: 'npm start --smoke',
			scopes,
			expiresAt: null,
		});
		n8n.apiKey = key.rawApiKey;
		await n8n.activate('exampleStream001');
		let response;
		for (let attempt = 0; attempt < 60; attempt++) {
			response = await fetch(`${n8n.baseUrl}/webhook/ask-agent`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ message: 'Tell me about otters' }),
				signal: AbortSignal.timeout(60_000),
			});
			if (response.status !== 404) break;
			await response.text();
			await new Promise((r) => setTimeout(r, 500));
		}
		const text = await response.text();
		if (response.status !== 200)
			throw new Error(`the webhook answered HTTP ${response.status}: ${text.slice(0, 500)}`);
		const pieces = text
			.split('\n')
			.filter((l) => l.trim())
			.map((l) => JSON.parse(l))
			.filter((m) => m.type === 'item');
		const answer = pieces.map((m) => m.content).join('');
		if (pieces.length < 2 || !answer.includes('otters')) {
			throw new Error(`the answer did not stream as expected: ${text.slice(0, 500)}`);
		}
		return `${pieces.length} pieces streamed`;
	});
}

let examplesImported = 0;

/**
 * The example workflows to import: all of them into a new n8n; later, only those whose id n8n
 * does not have yet (so that an example added to examples/ appears, and edits made in n8n stay).
 */
async function missingExamples(firstRun) {
	const all = exampleNames().map(loadExample);
	let known = new Set();
	if (!firstRun) {
		const { stdout } = await n8n.cli(['list:workflow', '--onlyId']);
		known = new Set(stdout.split('\n').map((l) => l.trim()));
	}
	const missing = all.filter((workflow) => !known.has(workflow.id));
	examplesImported = missing.length;
	return missing;
}

/** VERBOSE=1: shows n8n's log as it grows. */
function followLog(file) {
	const child = spawn('tail', ['-n', '0', '-F', file], { stdio: ['ignore', 'pipe', 'ignore'] });
	child.stdout.on('data', (chunk) => process.stderr.write(prefixLines('n8n', chunk)));
	process.on('exit', () => child.kill());
	return child;
}

process.on('SIGINT', () => shutdown('Ctrl-C'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGHUP', () => shutdown('SIGHUP'));
process.on('exit', () => {
	if (emulator && emulator.child.exitCode === null && emulator.child.signalCode === null) {
		emulator.child.kill('SIGKILL');
	}
});

main().catch(async (e) => {
	process.stderr.write(`\n[start] failed: ${e instanceof Error ? e.message : String(e)}\n`);
	await shutdown('failure', 1);
});
