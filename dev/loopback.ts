/**
 * The one loopback HTTP server of the tooling: the emulator and its second hosts (signed storage,
 * generated files), and the tests' small stand-ins (a webhook receiver, a web page where the API
 * should be, a scripted platform). Closing ends open connections at once, streams included, so a
 * test never waits on a socket a node left open.
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, RequestListener, Server } from 'node:http';
import { createServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface LoopbackServer {
	readonly server: Server;
	readonly port: number;
	/** `http://127.0.0.1:PORT` (IPv6 hosts in brackets), no trailing slash. */
	readonly origin: string;
	close(): Promise<void>;
}

export interface LoopbackOptions {
	/** 127.0.0.1 unless told. */
	host?: string;
	/** A free port unless told. */
	port?: number;
}

export async function startLoopbackServer(
	handler: RequestListener,
	{ host = '127.0.0.1', port = 0 }: LoopbackOptions = {},
): Promise<LoopbackServer> {
	const server = createServer(handler);
	// Uploads of hundreds of megabytes and long streams: no request time limit of Node's own.
	server.requestTimeout = 0;
	const sockets = new Set<Socket>();
	server.on('connection', (socket: Socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, host, () => {
			server.off('error', reject);
			resolve();
		});
	});
	const address = server.address() as AddressInfo;
	const hostName = address.family === 'IPv6' ? `[${address.address}]` : address.address;
	return {
		server,
		port: address.port,
		origin: `http://${hostName}:${address.port}`,
		close: () =>
			new Promise<void>((resolve) => {
				if (!server.listening) return resolve();
				server.close(() => resolve());
				server.closeAllConnections();
				for (const socket of sockets) socket.destroy();
			}),
	};
}

/** A request's whole body. */
export async function readBody(req: IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

/**
 * The first port of the range the system hands out to outgoing connections (Linux's
 * ip_local_port_range; elsewhere the IANA range's).
 */
function firstEphemeralPort(): number {
	try {
		const low = Number(
			readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').split(/\s+/)[0],
		);
		if (low > 12_000) return low;
	} catch {
		// not Linux
	}
	return 49_152;
}

/** Ports handed out on this machine: a file each, in the system's temporary folder. */
const CLAIMS = join(tmpdir(), 'agent-platform-port-claims');
/** A claim older than this is over: its port was bound long since, or never. */
const CLAIM_MS = 10 * 60_000;

/**
 * Claims a port for this process, atomically across the machine's processes (jest's workers, the
 * n8n processes' CLI runs, a second test run beside this one): between its pick and its bind, a
 * port checked free could be handed to another process checking the same.
 */
function claimPort(port: number): boolean {
	const file = join(CLAIMS, String(port));
	try {
		mkdirSync(CLAIMS, { recursive: true });
		writeFileSync(file, String(process.pid), { flag: 'wx' });
		return true;
	} catch {
		try {
			if (Date.now() - statSync(file).mtimeMs < CLAIM_MS) return false;
			writeFileSync(file, String(process.pid));
			return true;
		} catch {
			return false;
		}
	}
}

/**
 * A free TCP port on 127.0.0.1 (free when asked, and handed to no other process of the machine for
 * ten minutes; good enough for tests and npm start), picked at random below the range of outgoing
 * connections' ports: a port picked inside it can be taken by one of the machine's outgoing
 * connections before the server that asked for it binds it.
 */
export async function freePort(): Promise<number> {
	const below = firstEphemeralPort();
	for (let tries = 0; tries < 50; tries++) {
		const port = below - 10_000 + Math.floor(Math.random() * 10_000);
		if (claimPort(port) && (await portIsFree(port))) return port;
	}
	return await anyFreePort();
}

/** A port the system picks (inside the outgoing connections' range). */
function anyFreePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createTcpServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as AddressInfo;
			server.close(() => resolve(port));
		});
	});
}

/** Whether nothing listens on this port of 127.0.0.1 yet. */
export function portIsFree(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const server = createTcpServer();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}
