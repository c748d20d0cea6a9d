/**
 * The emulator's control API under /_emulator: no auth, no faults, not recorded. Tests and the
 * tools read the recorded requests, set faults and agent configurations through it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Platform } from './platform';
import type { RateLimiter } from './rateLimiter';
import { readBody } from './routes';
import type { AgentConfig, EmulatorFaults } from './types';

export type WriteJson = (res: ServerResponse, status: number, body: unknown) => void;

export async function control(
	core: Platform,
	limiter: RateLimiter,
	writeJson: WriteJson,
	req: IncomingMessage,
	res: ServerResponse,
	path: string,
): Promise<void> {
	const method = (req.method ?? 'GET').toUpperCase();
	const { text } = await readBody(req);
	let body: unknown = null;
	if (text) {
		try {
			body = JSON.parse(text);
		} catch {
			writeJson(res, 400, { message: 'The request body is not valid JSON.' });
			return;
		}
	}
	const send = (status: number, b: unknown) => writeJson(res, status, b);
	const isObj = (v: unknown): v is Record<string, unknown> =>
		!!v && typeof v === 'object' && !Array.isArray(v);

	if (path === '/health' && method === 'GET') {
		return send(200, {
			ok: true,
			url: `${core.origin()}${core.opts.basePath}`,
			workspaceId: core.opts.workspaceId,
		});
	}
	if (path === '/requests') {
		if (method === 'GET')
			return send(200, { count: core.requests.length, requests: core.requests });
		if (method === 'DELETE') {
			const n = core.requests.length;
			core.requests.length = 0;
			return send(200, { cleared: n });
		}
	}
	if (path === '/faults') {
		if (method === 'GET') return send(200, core.faults);
		if (method === 'PUT' || method === 'PATCH' || method === 'POST') {
			if (!isObj(body)) return send(422, { message: 'Send a JSON object of faults.' });
			core.setFaults(body as Partial<EmulatorFaults>);
			return send(200, core.faults);
		}
		if (method === 'DELETE') {
			core.resetFaults();
			limiter.reset();
			return send(200, core.faults);
		}
	}
	const cfg = /^\/agents\/(\d+)\/config$/.exec(path);
	if (cfg && (method === 'POST' || method === 'PUT')) {
		const id = Number(cfg[1]);
		if (!core.state.agents.has(id)) return send(404, { message: 'Agent not found' });
		if (!isObj(body))
			return send(422, {
				message: 'Send a JSON object: {executionSeconds?, fail?, output?, streamEvents?}.',
			});
		const prev = core.agentConfig.get(id) ?? {};
		const next: AgentConfig = { ...prev, ...(body as AgentConfig) };
		core.agentConfig.set(id, next);
		return send(200, { agentId: id, config: next });
	}
	return send(404, { message: 'Not Found' });
}
