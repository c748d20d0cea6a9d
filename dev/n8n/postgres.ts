/**
 * PostgreSQL for n8n in queue mode (the database n8n supports for it), from Debian's `postgresql`
 * package: one server on a free loopback port, its data, socket and log in a temporary folder,
 * no password (trust on loopback), fsync off (test data). PostgreSQL refuses to run as root, so as
 * root (CI) its commands run as the `postgres` user, who then owns the folder.
 *
 * `.ci/run` starts one server for the whole run and exports E2E_POSTGRES_PORT (run as a script:
 * `ts-node dev/n8n/postgres.ts start <folder>` prints the port, `stop <folder>` stops it); a test
 * run by hand starts its own (postgresServer). Each queue-mode set-up gets a new database on it.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { freePort } from '../loopback';
import { run } from './processes';

/** The user every n8n process connects as (trust: any password). */
export const POSTGRES_USER = 'n8n';

/** The newest PostgreSQL's binaries of Debian's layout (/usr/lib/postgresql/<major>/bin). */
function binDir(): string {
	const root = '/usr/lib/postgresql';
	const majors = existsSync(root)
		? readdirSync(root)
				.filter((name) => existsSync(join(root, name, 'bin', 'pg_ctl')))
				.sort((a, b) => Number(b) - Number(a))
		: [];
	if (majors.length === 0)
		throw new Error(
			'PostgreSQL is not installed: `apt-get install -y postgresql` (.ci/run does it on a fresh machine)',
		);
	return join(root, majors[0], 'bin');
}

/** As root, the server's commands run as the `postgres` user (PostgreSQL refuses root). */
function asServerUser(command: string, args: string[]): [string, string[]] {
	if (process.getuid?.() !== 0) return [command, args];
	return ['runuser', ['-u', 'postgres', '--', command, ...args]];
}

function serverUserIds(): { uid: number; gid: number } | undefined {
	if (process.getuid?.() !== 0) return undefined;
	const id = (flag: string) =>
		Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
	return { uid: id('-u'), gid: id('-g') };
}

export interface PostgresServer {
	port: number;
	/** A new empty database owned by POSTGRES_USER. */
	createDatabase(name: string): Promise<void>;
	dropDatabase(name: string): Promise<void>;
	/** Stops the server when this process started it (not one .ci/run started). */
	stop(): Promise<void>;
}

/** initdb and `pg_ctl start` in `folder` (created by the caller); returns the server's port. */
export async function startPostgresIn(folder: string): Promise<number> {
	const bin = binDir();
	const owner = serverUserIds();
	chmodSync(folder, 0o755);
	if (owner) chownSync(folder, owner.uid, owner.gid);
	const data = join(folder, 'data');
	const [initdb, initArgs] = asServerUser(join(bin, 'initdb'), [
		'-D',
		data,
		'-A',
		'trust',
		'-U',
		POSTGRES_USER,
		'-E',
		'UTF8',
		'--locale=C',
		'--no-sync',
	]);
	await run(initdb, initArgs, { cwd: folder, what: 'initdb', timeoutMs: 120_000 });
	const port = await freePort();
	const options = [
		`-p ${port}`,
		`-k ${folder}`,
		'-c listen_addresses=127.0.0.1',
		'-c fsync=off',
		'-c synchronous_commit=off',
		'-c full_page_writes=off',
		'-c max_connections=200',
	].join(' ');
	const [pgCtl, ctlArgs] = asServerUser(join(bin, 'pg_ctl'), [
		'-D',
		data,
		'-l',
		join(folder, 'postgres.log'),
		'-w',
		'-o',
		options,
		'start',
	]);
	await run(pgCtl, ctlArgs, { cwd: folder, what: 'pg_ctl start', timeoutMs: 60_000 });
	return port;
}

/** `pg_ctl stop -m fast` of the server whose data is in `folder`. */
export async function stopPostgresIn(folder: string): Promise<void> {
	const data = join(folder, 'data');
	if (!existsSync(join(data, 'postmaster.pid'))) return;
	const [pgCtl, args] = asServerUser(join(binDir(), 'pg_ctl'), ['-D', data, '-m', 'fast', 'stop']);
	await run(pgCtl, args, { cwd: folder, what: 'pg_ctl stop', allowFailure: true });
}

/** A client command (createdb, dropdb) against the server on `port`, as POSTGRES_USER. */
async function client(command: string, port: number, args: string[]): Promise<void> {
	await run(
		join(binDir(), command),
		['-h', '127.0.0.1', '-p', String(port), '-U', POSTGRES_USER, ...args],
		{
			what: command,
			timeoutMs: 60_000,
		},
	);
}

function serverOn(port: number, stop: () => Promise<void>): PostgresServer {
	return {
		port,
		createDatabase: (name) => client('createdb', port, [name]),
		dropDatabase: (name) => client('dropdb', port, ['--if-exists', '--force', name]),
		stop,
	};
}

/**
 * The PostgreSQL server of this run: the one .ci/run started (E2E_POSTGRES_PORT), or a new one in
 * a folder of its own under the system's temporary folder (every folder above the data must be
 * open to the postgres user), stopped and removed by stop().
 */
export async function postgresServer(): Promise<PostgresServer> {
	const shared = Number(process.env.E2E_POSTGRES_PORT);
	if (shared > 0) return serverOn(shared, async () => {});
	const folder = await mkdtemp(join(tmpdir(), 'n8n-postgres-'));
	try {
		const port = await startPostgresIn(folder);
		return serverOn(port, async () => {
			await stopPostgresIn(folder);
			await rm(folder, { recursive: true, force: true });
		});
	} catch (error) {
		await stopPostgresIn(folder);
		await rm(folder, { recursive: true, force: true });
		throw error;
	}
}

/** The variables every n8n process of a queue-mode set-up needs for its database. */
export function postgresEnv(port: number, database: string): Record<string, string> {
	return {
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(port),
		DB_POSTGRESDB_DATABASE: database,
		DB_POSTGRESDB_USER: POSTGRES_USER,
		DB_POSTGRESDB_PASSWORD: '',
	};
}

if (require.main === module) {
	const [command, folder] = process.argv.slice(2);
	const done =
		command === 'start'
			? startPostgresIn(folder).then((port) => console.log(port))
			: command === 'stop'
				? stopPostgresIn(folder)
				: Promise.reject(new Error('usage: postgres.ts start|stop <folder>'));
	done.catch((error: unknown) => {
		console.error(error instanceof Error ? error.message : error);
		process.exit(1);
	});
}
