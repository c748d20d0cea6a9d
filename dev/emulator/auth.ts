/** The platform's authentication: the bearer API key, then the x-workspace-id header. */
import type { IncomingMessage } from 'node:http';

import { json, type JsonReply } from './http';
import type { ResolvedOptions } from './options';

/** The platform's refusal of a request's credentials, or null when they are right. */
export function checkAuth(opts: ResolvedOptions, req: IncomingMessage): JsonReply | null {
	const auth = String(req.headers.authorization ?? '');
	const m = /^Bearer\s+(.+)$/i.exec(auth.trim());
	if (!m || m[1].trim() !== opts.apiKey) return json(403, { error: 'Invalid authentication' });
	const wsRaw = req.headers['x-workspace-id'];
	const ws = Array.isArray(wsRaw) ? wsRaw[0] : wsRaw;
	if (ws === undefined || ws.trim() === '')
		return json(422, { message: 'The x-workspace-id header is required.' });
	if (ws.trim() !== opts.workspaceId)
		return json(422, {
			message: 'The selected workspace is invalid or you do not have access to it.',
		});
	return null;
}
