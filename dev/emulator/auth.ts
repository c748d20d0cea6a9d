/** The platform's authentication: the bearer API key, then the x-workspace-id header. */
import type { IncomingMessage } from 'node:http';

import { json, type JsonReply } from './http';
import type { ResolvedOptions } from './options';

/**
 * The platform's refusal of a request's credentials, or null when they are right. A route with
 * `memberOnly` (workspace usage) answers 403 to a numeric workspace the key does not belong to,
 * as its docs say; the others 422.
 */
export function checkAuth(
	opts: ResolvedOptions,
	req: IncomingMessage,
	memberOnly = false,
): JsonReply | null {
	const auth = String(req.headers.authorization ?? '');
	const m = /^Bearer\s+(.+)$/i.exec(auth.trim());
	if (!m || m[1].trim() !== opts.apiKey) return json(403, { error: 'Invalid authentication' });
	const wsRaw = req.headers['x-workspace-id'];
	const ws = Array.isArray(wsRaw) ? wsRaw[0] : wsRaw;
	if (ws === undefined || ws.trim() === '')
		return json(422, { message: 'The x-workspace-id header is required.' });
	if (memberOnly && /^\d+$/.test(ws.trim()) && ws.trim() !== opts.workspaceId)
		return json(403, { message: 'You do not have access to this workspace.' });
	if (ws.trim() !== opts.workspaceId)
		return json(422, {
			message: 'The selected workspace is invalid or you do not have access to it.',
		});
	return null;
}
