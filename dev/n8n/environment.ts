/**
 * The environment of an n8n process: isolated in its instance's folder and ports, on Node 24
 * from the install cache, quiet and offline, with nothing of the parent's that changes n8n.
 */
import { join } from 'node:path';

import { NODE_HOME, type N8nLine } from './lines';

/** Fixed so that credentials stay readable across processes of one instance. */
const ENCRYPTION_KEY = 'agent-platform-e2e-encryption-key';

/** Where an instance lives: its line, folders and ports. */
export interface InstancePlaces {
	line: N8nLine;
	folder: string;
	userFolder: string;
	port: number;
	brokerPort: number;
	baseUrl: string;
}

/**
 * How the machine's npm reaches the registry (its CA file, proxy, registry), which npm hands the
 * scripts it runs as npm_config_* variables. The npm calls beside n8n (a hand install, n8n's
 * installer) run under n8n's Node, so npm reads that Node's global settings file, not the
 * machine's: these carry the machine's, as a person's own npm has them in a shell.
 */
const NPM_NETWORK_SETTINGS =
	/^npm_config_(cafile|ca|cert|key|registry|proxy|https_proxy|http_proxy|noproxy|strict_ssl)$/i;

/** Environment variables of the parent that must not leak into n8n. */
function inheritedEnv(): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) {
		// jest sets NODE_ENV=test and JEST_WORKER_ID; with them n8n's CLI prints nothing at all;
		// npm's other settings are the project's (its .npmrc: ignore-scripts), not a person's
		if (
			/^(N8N_|DB_|npm_|JEST_|NODE_ENV$|NODE_OPTIONS$|WEBHOOK_URL$|EXECUTIONS_|GENERIC_TIMEZONE$)/.test(
				key,
			) &&
			!NPM_NETWORK_SETTINGS.test(key)
		)
			continue;
		env[key] = value;
	}
	return env;
}

/** The environment of every n8n process of an instance, before its own extra variables. */
export function n8nEnvironment(instance: InstancePlaces): NodeJS.ProcessEnv {
	const base: Record<string, string> = {
		// as n8n's Docker image runs it (docker/images/n8n/Dockerfile: ENV NODE_ENV=production); without
		// it n8n runs in development mode: its editor's ~900 script files uncached (each page load asks
		// for every one again), stack traces in its error answers, no login limits
		NODE_ENV: 'production',
		N8N_USER_FOLDER: instance.userFolder,
		N8N_ENCRYPTION_KEY: ENCRYPTION_KEY,
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
		DB_TYPE: 'sqlite',
		DB_SQLITE_POOL_SIZE: '2',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_METRICS: 'false',
		N8N_AI_ENABLED: 'false',
		N8N_SECURE_COOKIE: 'false',
		EXTERNAL_FRONTEND_HOOKS_URLS: '',
		N8N_LOG_LEVEL: 'info',
		// the whole stack in n8n's log of an error (V8 keeps 10 frames): a runaway recursion's entry
		NODE_OPTIONS: '--stack-trace-limit=100000',
		N8N_HOST: '127.0.0.1',
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_PORT: String(instance.port),
		N8N_PROTOCOL: 'http',
		N8N_RUNNERS_BROKER_PORT: String(instance.brokerPort),
		TMPDIR: join(instance.folder, 'tmp'),
		PATH: `${join(NODE_HOME, 'bin')}:${process.env.PATH ?? ''}`,
		npm_config_nodedir: NODE_HOME,
	};
	if (instance.line.line === '1.x') {
		base.N8N_RUNNERS_ENABLED = 'true';
		base.WEBHOOK_URL = `${instance.baseUrl}/`;
	} else {
		base.N8N_WEBHOOK_URL = `${instance.baseUrl}/`;
		base.N8N_DISABLED_MODULES = 'mcp-registry';
	}
	return { ...inheritedEnv(), ...base };
}
