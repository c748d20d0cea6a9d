#!/usr/bin/env node
/**
 * npm start: try the nodes in a real n8n, against the local platform emulator.
 *
 *   1. builds and packs the package;
 *   2. makes sure n8n is installed in the cache (first time: 4-6 minutes, with progress);
 *   3. starts the emulator on 127.0.0.1:8787 (fixed dev key and workspace);
 *   4. installs the package into a real n8n as its community installer would, adds the
 *      credential "Agent Platform (local emulator)", imports the example workflows of examples/ (those n8n does not have yet),
 *      starts n8n on 127.0.0.1:5678 and sets up the owner account;
 *   5. prints how to sign in; Ctrl-C stops both.
 *
 * `npm start -- --smoke` (CI runs it): the same start in a new empty folder on free ports, then
 * signs in, tests the credential, runs the stream example through its webhook, and stops both,
 * exiting 0 only when every step worked.
 *
 * Environment (docs/trying-locally.md): N8N_LINE=1 (n8n 1.x; default 2.x), N8N_PORT (5678),
 * EMULATOR_PORT (8787), N8N_DEV_FOLDER (n8n's data; default in the user's data folder, outside the
 * checkout: dev/start/layout.ts), FRESH=1 (start from an empty n8n), VERBOSE=1 (show n8n's and the
 * emulator's logs here).
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import {
	DEV_PLATFORM,
	DEV_SIGN_IN,
	EXAMPLE_CREDENTIALS,
	N8nInstance,
	agentPlatformCredential,
	assertLoadsAsUsersDo,
	devN8nFolder,
	ensureN8n,
	exampleNames,
	followLog,
	formerDevN8nFolder,
	freePort,
	lineByName,
	log,
	missingExamples,
	changedSinceImport,
	noteImported,
	presentExamples,
	packPackage,
	portIsFree,
	secondsSince,
	selfCheck,
	setLogPrefix,
	smokeTest,
	startEmulatorProcess,
} from './dev-tools.mjs';

setLogPrefix('start');

const DEV = {
	...DEV_PLATFORM,
	owner: DEV_SIGN_IN,
	// The example workflows (examples/*.json) reference these credentials by id.
	credential: EXAMPLE_CREDENTIALS.agentPlatform,
};

const smoke = process.argv.includes('--smoke');
const line = lineByName(process.env.N8N_LINE || '2');
const n8nPort = smoke ? await freePort() : portFromEnv('N8N_PORT', 5678);
const emulatorPort = smoke ? await freePort() : portFromEnv('EMULATOR_PORT', 8787);
const verbose = process.env.VERBOSE === '1';
const folder = smoke ? mkdtempSync(join(tmpdir(), 'agent-platform-smoke-')) : devN8nFolder(line);

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

/** An earlier npm start's n8n data, inside the checkout, moved to the folder outside it (once). */
function moveFormerFolder() {
	const former = formerDevN8nFolder(line);
	if (existsSync(folder) || !existsSync(former)) return;
	mkdirSync(dirname(folder), { recursive: true });
	try {
		renameSync(former, folder);
	} catch {
		cpSync(former, folder, { recursive: true });
		rmSync(former, { recursive: true, force: true });
	}
	log(`moved n8n's data of an earlier npm start from ${former} to ${folder}`);
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
	await emulator?.stop();
	log('stopped');
	process.exit(code);
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
	if (!smoke && !process.env.N8N_DEV_FOLDER) moveFormerFolder();
	mkdirSync(folder, { recursive: true });
	const emulatorLog = join(folder, 'emulator.log');
	log(`starting the emulator on 127.0.0.1:${emulatorPort}`);
	emulator = await startEmulatorProcess({
		port: emulatorPort,
		apiKey: DEV.apiKey,
		workspaceId: DEV.workspaceId,
		logFile: emulatorLog,
		verbose,
	});
	emulator.exited.then((code) => {
		if (!stopping) {
			log(`the emulator stopped unexpectedly (${code}); see ${emulatorLog}`);
			shutdown('emulator gone', 1);
		}
	});

	n8n = await N8nInstance.create(line, { folder, port: n8nPort });
	const firstRun = !existsSync(join(n8n.userFolder, '.n8n', 'database.sqlite'));
	log(`installing the package into n8n ${line.version} (data: ${folder})`);
	await n8n.installPackage(tarball);
	assertLoadsAsUsersDo(n8n.userFolder, line);
	const platform = { url: emulator.url, apiKey: DEV.apiKey, workspaceId: DEV.workspaceId };
	await n8n.importCredentials([agentPlatformCredential(platform, DEV.credential)]);
	const examples = await missingExamples(n8n, firstRun);
	const present = presentExamples(examples);
	const outdated = changedSinceImport(n8n.userFolder, present);
	if (examples.length) {
		log(`importing ${examples.length} example workflow(s) from examples/`);
		await n8n.importWorkflows(examples);
	}
	noteImported(n8n.userFolder, examples, present);
	if (outdated.length) {
		log(
			`examples/ has changed since these were imported, and n8n keeps its copy (your edits stay): ${outdated.map((w) => `"${w.name}"`).join(', ')}. ` +
				'To get the current one, delete it in n8n and run npm start again, or start empty with FRESH=1 npm start',
		);
	}

	log(`starting n8n ${line.version} on 127.0.0.1:${n8nPort}`);
	if (verbose) log(`n8n log: ${n8n.logFile}`);
	const tail = verbose ? followLog(n8n.logFile) : undefined;
	try {
		await n8n.start({ timeoutMs: 180_000 });
	} catch (e) {
		tail?.kill();
		await emulator.stop();
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
	const agentCount = await selfCheck(n8n, platform);

	const editorUrl = `http://127.0.0.1:${n8nPort}`;
	const lines = [
		'',
		`  n8n ${line.version} with n8n-nodes-agent-platform is running (ready in ${secondsSince(begun)})`,
		'',
		`  Editor:     ${editorUrl}`,
		`  Sign in:    ${DEV.owner.email}  /  ${DEV.owner.password}`,
		'',
		`  Emulator:   ${emulator.url}   (${agentCount} agents)`,
		`  API key:    ${DEV.apiKey}`,
		`  Workspace:  ${DEV.workspaceId}`,
		`  Credential: "${DEV.credential.name}" (already set up in n8n)`,
		`  Examples:   ${exampleNames().length} workflows named "Example: …" (examples/*.json)` +
			(examples.length ? `, ${examples.length} imported now` : ', already imported'),
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
		await smokeTest(n8n, DEV.owner, DEV.credential);
		rmSync(folder, { recursive: true, force: true });
		await shutdown('smoke test passed', 0);
	}
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
