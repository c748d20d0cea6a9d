/**
 * Runs the emulator as a process:
 *   npx ts-node --transpile-only dev/emulator/cli.ts --port 8787 --api-key KEY --workspace-id 42 \
 *     [--host 127.0.0.1] [--base-path /api] [--time-scale N] [--latency MS] [--rate-limit RPS [--burst B]]
 *     [--fixed-window L/W] [--retry-after S] [--seed-memories N] \
 *     [--execution-seconds N] [--require-https-webhooks] [--quiet]
 * Prints the base URL, key and workspace id on three lines, then serves until SIGINT/SIGTERM.
 * EMULATOR_MODEL_URL (with EMULATOR_MODEL_KEY, EMULATOR_MODEL_NAME) in the environment sends the
 * chat agents' model calls to that OpenAI-compatible endpoint (modelEndpoint.ts).
 */
import { PlatformEmulator } from './index';
import type { EmulatorOptions } from './index';
import { modelEndpointFromEnv } from './modelEndpoint';

const USAGE =
	'usage: cli.ts [--port N] [--host H] [--base-path P] [--api-key KEY] [--workspace-id ID] [--time-scale N] [--latency MS]\n' +
	'              [--rate-limit RPS [--burst B]] [--fixed-window L/W] [--retry-after S]\n' +
	'              [--seed-memories N] [--execution-seconds N] [--require-https-webhooks] [--quiet]\n' +
	'  --rate-limit RPS   token bucket per API key: RPS tokens a second, B at most (default RPS)\n' +
	'  --fixed-window L/W fixed window per API key: L requests per W seconds, Laravel headers';

function parseArgs(argv: string[]): EmulatorOptions {
	const opts: EmulatorOptions = { quiet: false, model: modelEndpointFromEnv(process.env) };
	const faults: NonNullable<EmulatorOptions['faults']> = {};
	const num = (flag: string, v: string | undefined): number => {
		const n = Number(v);
		if (v === undefined || v === '' || !Number.isFinite(n)) {
			process.stderr.write(`${flag} needs a number\n${USAGE}\n`);
			process.exit(2);
		}
		return n;
	};
	for (let i = 0; i < argv.length; i++) {
		const [flag, inline] = argv[i].split(/=(.*)/s, 2) as [string, string | undefined];
		const value = () => (inline !== undefined ? inline : argv[++i]);
		switch (flag) {
			case '--port':
				opts.port = num(flag, value());
				break;
			case '--host':
				opts.host = value();
				break;
			case '--api-key':
				opts.apiKey = value();
				break;
			case '--workspace-id':
				opts.workspaceId = value();
				break;
			case '--storage-port':
				opts.storagePort = num(flag, value());
				break;
			case '--base-path':
				opts.basePath = value();
				break;
			case '--time-scale':
				opts.timeScale = num(flag, value());
				break;
			case '--execution-seconds':
				opts.executionSeconds = num(flag, value());
				break;
			case '--latency':
				faults.latencyMs = num(flag, value());
				break;
			case '--rate-limit':
				faults.rateLimitPerSecond = num(flag, value());
				break;
			case '--burst':
				faults.rateLimitBurst = num(flag, value());
				break;
			case '--fixed-window': {
				const text = value() ?? '';
				const match = /^(\d+)\/(\d+(?:\.\d+)?)$/.exec(text);
				if (!match) {
					process.stderr.write(`--fixed-window needs L/W, e.g. 60/60\n${USAGE}\n`);
					process.exit(2);
				}
				faults.rateLimitWindow = { limit: Number(match[1]), seconds: Number(match[2]) };
				break;
			}
			case '--retry-after':
				faults.retryAfterSeconds = num(flag, value());
				break;
			case '--seed-memories':
				opts.seed = { ...(opts.seed ?? {}), memories: num(flag, value()) };
				break;
			case '--require-https-webhooks':
				opts.requireHttpsWebhooks = true;
				break;
			case '--quiet':
				opts.quiet = true;
				break;
			case '--help':
			case '-h':
				process.stdout.write(`${USAGE}\n`);
				process.exit(0);
				break;
			default:
				process.stderr.write(`unknown argument: ${argv[i]}\n${USAGE}\n`);
				process.exit(2);
		}
	}
	opts.faults = faults;
	return opts;
}

async function main(): Promise<void> {
	const emu = new PlatformEmulator(parseArgs(process.argv.slice(2)));
	const url = await emu.start();
	process.stdout.write(
		`Base URL: ${url}\nAPI key: ${emu.apiKey}\nWorkspace ID: ${emu.workspaceId}\n`,
	);
	const model = modelEndpointFromEnv(process.env);
	process.stderr.write(
		model
			? `[emulator] chat agents' model calls go to ${model.url} (model ${model.model ?? 'as asked'})\n`
			: "[emulator] chat agents answer with the emulator's stand-in (EMULATOR_MODEL_URL: a model of your own)\n",
	);
	let stopping = false;
	const shutdown = (signal: string) => {
		if (stopping) return;
		stopping = true;
		process.stderr.write(`[emulator] ${signal}: stopping\n`);
		emu.stop().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.on('SIGINT', () => shutdown('SIGINT'));
	process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((e) => {
	process.stderr.write(
		`[emulator] failed to start: ${e instanceof Error ? e.message : String(e)}\n`,
	);
	process.exit(1);
});
