/**
 * Whom a request is for: a person waiting on the answer (interactive) or nobody right now (bulk).
 * The pace gives the next free slot to interactive work (paceQueue.ts), so that a chat message is
 * not answered after a background job's paging. The rule, written down in docs/rate-limits.md:
 *
 * - interactive: an editor lookup (pickers, dropdowns, the credential test); an execution that
 *   streams to its caller (`isStreaming()`); a run from the editor (mode `manual`) or n8n's chat
 *   (`chat`); a webhook-started execution whose caller waits for the answer: a Chat Trigger, or a
 *   Webhook or Form Trigger that answers when the workflow has run (any response mode except
 *   "Immediately"); tool and model calls inside such an execution (they share its mode).
 * - bulk: everything else: schedules and other triggers, webhooks answered at once (this package's
 *   own trigger included), sub-workflows, retries of failed executions, evaluations.
 */
import type { INodeParameters, NodeTypeAndVersion } from 'n8n-workflow';

import type { PlatformContext } from '../types';

export type WorkClass = 'interactive' | 'bulk';

interface ExecutionView {
	getCurrentNodeParameters?: () => unknown;
	isStreaming?: () => boolean;
	getMode?: () => string;
	getNode?: () => { name: string };
	getParentNodes?: (
		name: string,
		options?: { includeNodeParameters?: boolean },
	) => NodeTypeAndVersion[];
	getChatTrigger?: () => { disabled?: boolean } | null;
	/** n8n-core's SupplyDataContext (1.x and 2.x): the root node a tool or model serves. */
	parentNode?: { name?: string };
}

/** Node types whose HTTP caller is a person in n8n's chat. */
const CHAT_TRIGGERS = /\.(chatTrigger|manualChatTrigger)$/;
/** Node types whose caller may wait for the workflow's answer, by their Response Mode. */
const ANSWERING_TRIGGERS = /\.(webhook|formTrigger)$/;

function callerWaits(parameters: INodeParameters | undefined): boolean {
	const responseMode = parameters?.responseMode;
	// n8n's Webhook and Form Trigger answer at once by default ("Immediately": onReceived)
	return typeof responseMode === 'string' && responseMode !== 'onReceived';
}

/** Whether a webhook-started execution has a caller waiting: read from its trigger's settings. */
function webhookCallerWaits(view: ExecutionView): boolean {
	// a tool or model asks for the root node it serves (the AI Agent, a chain): its trigger is the root's
	const name = view.parentNode?.name ?? view.getNode?.().name;
	let ancestors: NodeTypeAndVersion[] = [];
	try {
		if (name) ancestors = view.getParentNodes?.(name, { includeNodeParameters: true }) ?? [];
	} catch {
		ancestors = [];
	}
	const started = ancestors.filter((node) => !node.disabled);
	if (started.some((node) => CHAT_TRIGGERS.test(node.type))) return true;
	if (started.some((node) => ANSWERING_TRIGGERS.test(node.type) && callerWaits(node.parameters)))
		return true;
	// a tool or model inside n8n's AI Agent has no ancestors on the main connections: its workflow's chat trigger
	if (started.length === 0) {
		const chat = view.getChatTrigger?.();
		return Boolean(chat && !chat.disabled);
	}
	return false;
}

function classify(view: ExecutionView): WorkClass {
	if (typeof view.getCurrentNodeParameters === 'function') return 'interactive';
	try {
		if (view.isStreaming?.()) return 'interactive';
	} catch {
		// a context without streaming support
	}
	const mode = view.getMode?.();
	if (mode === 'manual' || mode === 'chat') return 'interactive';
	if (mode === 'webhook') return webhookCallerWaits(view) ? 'interactive' : 'bulk';
	return 'bulk';
}

// One answer per n8n context: every request of a node run asks, and the answer cannot change.
const known = new WeakMap<object, WorkClass>();

export function workClassOf(ctx: PlatformContext): WorkClass {
	let workClass = known.get(ctx);
	if (!workClass) known.set(ctx, (workClass = classify(ctx as unknown as ExecutionView)));
	return workClass;
}

/** Whose request it is: n8n's execution ID, or the n8n context of a lookup without one. */
export type ExecutionKey = string | object;

/**
 * Whose request it is, for the rotation within a class (classQueue.ts): n8n's execution ID, so
 * that a node's items, its tools and its model share their execution's place; a context without
 * one (an editor lookup) has its own.
 */
export function executionOf(ctx: PlatformContext): ExecutionKey {
	try {
		return (ctx as { getExecutionId?: () => string | undefined }).getExecutionId?.() ?? ctx;
	} catch {
		return ctx;
	}
}
