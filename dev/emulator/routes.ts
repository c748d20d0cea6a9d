/**
 * The emulator's routing: the table of the platform's endpoints and their handlers, matching a
 * method and path against it, and reading a request's body.
 */
import type { IncomingMessage } from 'node:http';

import * as agents from './agents';
import * as collections from './collections';
import * as runs from './runs';
import * as files from './files';
import * as generatedFiles from './generatedFiles';
import type { Ctx, Reply } from './http';
import * as memories from './memories';
import * as resources from './resources';
import * as responseList from './responseList';
import * as signedUploads from './signedUploads';
import * as usage from './usage';
import * as webhooks from './webhooks';

type Handler = (ctx: Ctx) => Reply | Promise<Reply>;

export interface Route {
	method: string;
	segments: string[];
	handler: Handler;
	/** The handler reads the body itself (multipart upload). */
	rawBody?: boolean;
	/** A numeric workspace the key is not in is a 403, not a 422 (auth.ts). */
	memberOnly?: boolean;
}

function route(method: string, pattern: string, handler: Handler, rawBody = false): Route {
	return { method, segments: pattern.split('/').filter(Boolean), handler, rawBody };
}

export const ROUTES: Route[] = [
	// Agents and executions
	route('GET', '/agents', agents.listAgents),
	route('GET', '/agents/:id', agents.getAgent),
	route('POST', '/agents/:id/execute', runs.execute),
	route('POST', '/agents/:id/openai/chat/completions', runs.chatCompletions),
	route('GET', '/agent-responses', responseList.listResponses),
	route('GET', '/generated-files/:name', generatedFiles.serveGeneratedFile),
	route('GET', '/agent-responses/:id', runs.getResponse),
	// Files
	route('POST', '/files', files.uploadFile, true),
	route('GET', '/files', files.listFiles),
	route('GET', '/files/:fileId', files.getFile),
	route('DELETE', '/files/:fileId', files.deleteFile),
	route('POST', '/files/:fileId/process', files.processFile),
	route('POST', '/v2/files/sign', signedUploads.signUpload),
	route('POST', '/v2/files/register', signedUploads.registerUpload),
	route('POST', '/agents/:id/files', agents.linkFiles),
	route('GET', '/agents/:id/files', agents.listAgentFiles),
	route('DELETE', '/agents/:id/files/:fileId', agents.unlinkFile),
	// Memories and collections
	route('POST', '/memories', memories.createMemory),
	route('GET', '/memories', memories.listMemories),
	route('PATCH', '/memories/:memoryId', memories.updateMemory),
	route('DELETE', '/memories/:memoryId', memories.deleteMemory),
	route('POST', '/memory-collections', collections.createCollection),
	route('GET', '/memory-collections', collections.listCollections),
	route('PUT', '/memory-collections/:collectionId', collections.updateCollection),
	route('DELETE', '/memory-collections/:collectionId', collections.deleteCollection),
	// Webhooks
	route('GET', '/agents/:id/webhooks', webhooks.listAgentWebhooks),
	route('POST', '/agents/:id/webhooks', webhooks.createWebhook),
	route('GET', '/webhooks', webhooks.listWebhooks),
	route('DELETE', '/webhooks/:id', webhooks.deleteWebhook),
	// Resources
	route('GET', '/resources', resources.listResources),
	// Workspace
	{ ...route('GET', '/workspaces/usage', usage.listUsage), memberOnly: true },
];

function matchSegments(r: Route, parts: string[]): Record<string, string> | null {
	if (r.segments.length !== parts.length) return null;
	const params: Record<string, string> = {};
	for (let i = 0; i < parts.length; i++) {
		const s = r.segments[i];
		if (s.startsWith(':')) {
			let v: string;
			try {
				v = decodeURIComponent(parts[i]);
			} catch {
				v = parts[i];
			}
			params[s.slice(1)] = v;
		} else if (s !== parts[i]) return null;
	}
	return params;
}

export function findRoute(
	method: string,
	path: string,
): { route: Route; params: Record<string, string> } | { allowed: string[] } | null {
	const parts = path.split('/').filter(Boolean);
	const allowed: string[] = [];
	for (const r of ROUTES) {
		const params = matchSegments(r, parts);
		if (!params) continue;
		if (r.method === method) return { route: r, params };
		allowed.push(r.method);
	}
	return allowed.length ? { allowed } : null;
}

const MAX_JSON_BODY = 20 * 1024 * 1024;

export function readBody(req: IncomingMessage): Promise<{ text: string; tooLarge: boolean }> {
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		let size = 0;
		let tooLarge = false;
		req.on('data', (c: Buffer) => {
			size += c.length;
			if (size > MAX_JSON_BODY) tooLarge = true;
			else chunks.push(c);
		});
		req.on('end', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), tooLarge }));
		req.on('error', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), tooLarge }));
		req.on('aborted', () => resolve({ text: '', tooLarge }));
	});
}

export function parseBody(text: string, contentType: string): { body: unknown; error: boolean } {
	if (text === '') return { body: null, error: false };
	const ct = contentType.toLowerCase();
	if (ct.includes('application/x-www-form-urlencoded')) {
		return { body: Object.fromEntries(new URLSearchParams(text)), error: false };
	}
	if (ct.includes('json') || ct === '' || /^\s*[[{]/.test(text)) {
		try {
			return { body: JSON.parse(text), error: false };
		} catch {
			return { body: text, error: ct.includes('json') };
		}
	}
	return { body: text, error: false };
}
