/**
 * What the Agent Platform Trigger needs besides HTTP: its delivery secret, recognising its own
 * webhooks among an agent's, and turning a delivery into an item. Pure functions, unit-tested.
 */
import { createHash, randomBytes, timingSafeEqual } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { runFields } from '../runs/agentResponses';

/**
 * The Agent Platform signs no delivery (docs/platform-assumptions.md). The trigger registers its
 * n8n webhook URL with a random secret in this query parameter, keeps the secret in the
 * workflow's static data and answers 401 to a delivery that does not carry it.
 */
export const SECRET_PARAMETER = 'secret';

/** 32 random bytes as 64 hex characters: URL-safe as it is. */
export function newWebhookSecret(): string {
	return randomBytes(32).toString('hex');
}

/**
 * Whether a received secret is the expected one, in constant time whatever the lengths:
 * both sides are hashed first, so `timingSafeEqual` always compares 32 bytes and the time taken
 * says nothing about where (or whether the lengths) differ. No expected secret: nothing matches.
 */
export function secretMatches(received: unknown, expected: unknown): boolean {
	if (typeof received !== 'string' || typeof expected !== 'string' || expected === '') return false;
	const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
	return timingSafeEqual(digest(received), digest(expected));
}

/** n8n's webhook URL with the secret in the query string: the address registered on the platform. */
export function urlWithSecret(webhookUrl: string, secret: string): string {
	const url = new URL(webhookUrl);
	url.searchParams.set(SECRET_PARAMETER, secret);
	return url.toString();
}

/**
 * A URL without its query string, fragment or trailing slash, with scheme and host in lower
 * case and no default port: two URLs of one address give the same text. Undefined if not a URL.
 */
export function addressOf(url: unknown): string | undefined {
	if (typeof url !== 'string') return undefined;
	try {
		const parsed = new URL(url);
		return `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/+$/, '')}`;
	} catch {
		return undefined;
	}
}

/** The secret a registered URL carries, if any. */
export function secretOf(url: unknown): string | undefined {
	if (typeof url !== 'string') return undefined;
	try {
		return new URL(url).searchParams.get(SECRET_PARAMETER) || undefined;
	} catch {
		return undefined;
	}
}

/** What the trigger keeps in `getWorkflowStaticData('node')`. */
export interface StoredWebhook {
	webhookId?: string;
	webhookSecret?: string;
}

export interface WebhookPlan {
	/** The platform webhook to keep using, and the secret its URL carries. */
	keep?: { id: string; secret: string };
	/** Ids of webhooks of this node to delete: duplicates and ones that cannot deliver to us. */
	remove: string[];
}

/**
 * Decides, from the agent's webhooks on the platform, which one this trigger node keeps using.
 *
 * A webhook is this node's when its URL is n8n's webhook URL of this node (production and test
 * URLs differ, as do the URLs of two workflows), whatever secret its query string carries. Of
 * those, one that is active and carries a secret is kept: the stored one when the platform
 * still has it, else the first. Every other one of them is to be removed, so that a restart, a
 * re-activation or an earlier crash never leaves two. The stored webhook is removed too when the
 * platform has it under another URL: this node registered it, for an address n8n no longer uses.
 * A stored id the platform does not list at all is simply forgotten (no `keep`).
 */
export function planWebhooks(
	webhooks: IDataObject[],
	webhookUrl: string,
	stored: StoredWebhook,
): WebhookPlan {
	const ours = addressOf(webhookUrl);
	const storedId = stored.webhookId === undefined ? undefined : String(stored.webhookId);
	const mine = webhooks.filter((webhook) => ours !== undefined && addressOf(webhook.url) === ours);
	const usable = mine.filter(
		(webhook) => secretOf(webhook.url) !== undefined && (webhook.status ?? 'active') === 'active',
	);
	const chosen = usable.find((webhook) => String(webhook.id) === storedId) ?? usable[0];
	const remove = mine.filter((webhook) => webhook !== chosen).map((webhook) => String(webhook.id));
	const storedElsewhere = webhooks.find(
		(webhook) =>
			storedId !== undefined && String(webhook.id) === storedId && !mine.includes(webhook),
	);
	if (storedElsewhere) remove.push(storedId as string);
	return {
		keep: chosen ? { id: String(chosen.id), secret: secretOf(chosen.url) as string } : undefined,
		remove,
	};
}

// ---------------------------------------------------------------------------------------------
// Deliveries
// ---------------------------------------------------------------------------------------------

export const DELIVERY_STATUSES = [
	'canceled',
	'completed',
	'error',
	'failed',
	'running',
	'starting',
	'succeeded',
];

function isPlainObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * One delivery as one item's JSON. A body that parses as JSON is JSON, whatever its
 * Content-Type: an object becomes the item as it is; any other JSON value (array, string,
 * number, null) goes under `body`. A body that is not JSON is kept as text under `body`.
 * `rawBody` is the request's bytes as n8n read them; `parsedBody` (n8n's parse) is the
 * fallback when they are missing.
 */
export function deliveryJson(
	rawBody: Uint8Array | string | undefined,
	parsedBody: unknown,
): IDataObject {
	let value: unknown = parsedBody;
	if (rawBody !== undefined) {
		const text = (
			typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody)
		).replace(/^\uFEFF/, '');
		value = text;
		if (text.trim() !== '') {
			try {
				value = JSON.parse(text);
			} catch {
				value = text; // not JSON: accepted as text
			}
		}
	}
	return isPlainObject(value)
		? value
		: { body: value === undefined ? '' : (value as IDataObject['body']) };
}

/**
 * Whether a delivery passes the status filter: no statuses chosen lets everything through;
 * otherwise the delivery's `status` (case-insensitive; "cancelled" counts as "canceled") must
 * be one of them.
 */
export function statusAllowed(json: IDataObject, statuses: string[] | undefined): boolean {
	if (!statuses || statuses.length === 0) return true;
	if (typeof json.status !== 'string') return false;
	const status = json.status
		.trim()
		.toLowerCase()
		.replace(/^cancelled$/, 'canceled');
	return statuses.includes(status);
}

/**
 * A delivery as the workflow gets it: a run record also carries the fields Execute's items carry
 * (runFields: `agent_id`, the common `status` with the platform's own in `platform_status`…);
 * anything else passes unchanged. Made after the status filter, which reads the platform's word.
 */
export function deliveryItem(json: IDataObject): IDataObject {
	const isRun = json.id !== undefined && json.status !== undefined;
	return isRun ? { ...json, ...runFields(json) } : json;
}
