/**
 * The agent whose form the editor's lookups (answer fields, their descriptions, Model, Tools,
 * Temperature) show: the one in the Agent field once typing there has stopped.
 *
 * n8n asks for every lookup again on each change of the Agent field, and applies each answer as
 * it comes, with no regard to which change asked for it: typing 99999 By ID asks for agents 9,
 * 99, … 99999, and an answer for agent 9 that arrived last left agent 9's required answers in
 * the form (its Answers fields keep the last answer's list; Refresh asks again only for the field's
 * ID). So a typed ID (By ID, By URL) is looked up only once it has stood for TYPED_AGENT.settleMs,
 * and a lookup asked on the way (for a shorter or longer ID of the same digits) answers with the
 * agent finally given: whatever order the answers arrive in, the form shows that agent's, and
 * the IDs typed on the way cost no request. The lookups reach the node in about the order they
 * were asked, not exactly: n8n's server reads its database for each first, so one asked while
 * typing on (for 9999) may reach it after the next digit's (99999). A shorter ID on the way that
 * a lookup asks for the first time in a typing run, while the longer one settles, is such a late
 * one, and leaves the latest ID as it is; the same lookup asking again for an ID it asked for
 * before is the person's return to it (digits removed at the end: the Answers ask on every
 * change, so that ask is always a second one). An ID the platform has no agent for (404) is an agent
 * with no questions, marked `missing`, so that nothing of the agent typed before stays. A lookup
 * answered while the person typed on is answered again for the ID typed last.
 *
 * A dropdown (Model, Tools, Temperature, Answer Name or ID) is not asked again by n8n's editor
 * while its answer is pending (ParameterInput.vue's loadRemoteParameterOptions returns while
 * loading), unlike the Answers (ResourceMapper.vue asks on every change). Where the Answers carry
 * the typed IDs (Execute), a held dropdown learns the last one from them; a form of dropdowns only
 * (the chat model) is not held, so each change finds its dropdowns free to ask again. What a list
 * says of an agent never names its ID (as n8n's own nodes say "could not be found"): an answer the
 * editor kept from an ID on the way can never show a prefix of the ID typed.
 */
import type { ILoadOptionsFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { AgentDefinition } from '../helpers/agents/definitions';
import { readAgentDefinition } from '../helpers/agents/definitions';
import { currentAgentId } from '../helpers/input/parameters';
import { replyKey } from '../helpers/lookups/keptReplies';
import { BoundedMap } from '../transport/boundedMap';
import { asNodeError } from '../transport/errors';

/** Mutable so that tests can shorten the times. */
export const TYPED_AGENT = {
	/** A typed ID is looked up once it has stood this long (people type a digit every 100-300 ms). */
	settleMs: 700,
	/** A lookup of an ID typed longer ago than this is not on the way to the latest one. */
	typingMs: 15_000,
	/** Credentials whose latest typed ID is kept (the least recently typed goes first). */
	maxEntries: 200,
	/**
	 * An ID the platform answered 404 for is not asked again for this long: the form's other
	 * lookups (asked one after another, not together) and a Refresh get the same answer.
	 */
	missingKeptMs: 10_000,
};

export interface FormAgent {
	agentId: string;
	definition: AgentDefinition;
	/** Said when the definition is one kept from before (the rate limit holds the key). */
	note?: string;
	/** The platform has no agent with this ID (for this credential). */
	missing?: boolean;
}

interface Typed {
	agentId: string;
	at: number;
	/** The order the lookups came in (before anything is awaited): the later one is the latest. */
	order: number;
	/** Each lookup's IDs asked in this typing run (`lookup` and ID): a second ask is a return. */
	asked: Set<string>;
}

let lookups = 0;

/** The latest ID typed in an Agent field, per credential (a digest: keptReplies.ts). */
const latestTyped = new BoundedMap<string, Typed>(() => TYPED_AGENT.maxEntries);
/** When the platform last said it has no agent with an ID, per credential and ID (digests). */
const missingSince = new BoundedMap<string, number>(() => TYPED_AGENT.maxEntries);

function typedMode(ctx: ILoadOptionsFunctions): boolean {
	const raw = ctx.getCurrentNodeParameter('agentId') as { mode?: unknown } | string | undefined;
	return typeof raw === 'object' && raw !== null && raw.mode !== undefined && raw.mode !== 'list';
}

/** Two IDs met while typing one: one starts with the other (digits added or removed at its end). */
function onTheWay(one: string, other: string): boolean {
	return one !== other && (one.startsWith(other) || other.startsWith(one));
}

/**
 * The ID finally typed: this one, or, when the field went on changing at its end while this
 * lookup waited, the latest, once it has stood for settleMs.
 */
async function settledId(
	ctx: ILoadOptionsFunctions,
	agentId: string,
	/** The lookup that asked for `agentId`; none when it follows the ID typed since. */
	lookup?: string,
): Promise<string> {
	const mine = { agentId, at: Date.now(), order: ++lookups };
	const key = await replyKey(ctx, 'agent typed in the Agent field');
	const last = latestTyped.get(key);
	const typing = last !== undefined && Date.now() - last.at <= TYPED_AGENT.typingMs;
	const asked = typing ? last.asked : new Set<string>();
	const again = lookup === undefined || asked.has(`${lookup}\n${agentId}`);
	if (lookup !== undefined) asked.add(`${lookup}\n${agentId}`);
	// asked while typing on, and come after the next digit's lookup (see above) while that one
	// settles: an ID pasted whole, then shortened after a pause, is still followed
	const late =
		typing &&
		!again &&
		last.agentId.startsWith(agentId) &&
		Date.now() - last.at < TYPED_AGENT.settleMs;
	// the other lookups of one change share its time; one that came in later is not overwritten
	if (!last || (last.agentId !== agentId && last.order < mine.order && !late))
		latestTyped.set(key, { ...mine, asked });
	else if (!typing) last.asked = asked;
	let wanted = agentId;
	for (;;) {
		const typed = latestTyped.get(key);
		if (
			!typed ||
			(typed.agentId !== wanted && !onTheWay(typed.agentId, wanted)) ||
			Date.now() - typed.at > TYPED_AGENT.typingMs
		)
			return wanted;
		wanted = typed.agentId;
		const left = typed.at + TYPED_AGENT.settleMs - Date.now();
		if (left <= 0) return wanted;
		await sleep(left);
	}
}

function isNotFound(error: unknown): boolean {
	return (error as { httpCode?: unknown } | null)?.httpCode === '404';
}

/** The agent with this ID, or one marked `missing` where the platform has none (404, kept a while). */
async function lookUp(ctx: ILoadOptionsFunctions, agentId: string): Promise<FormAgent> {
	const missing = {
		agentId,
		definition: { id: agentId, title: `Agent ${agentId}`, questions: [] },
		missing: true,
	};
	const key = await replyKey(ctx, `no agent ${agentId}`);
	const since = missingSince.get(key);
	if (since !== undefined && Date.now() - since < TYPED_AGENT.missingKeptMs) return missing;
	try {
		return { agentId, ...(await readAgentDefinition(ctx, agentId)) };
	} catch (error) {
		if (!isNotFound(error)) throw asNodeError(ctx.getNode(), error);
		missingSince.set(key, Date.now());
		return missing;
	}
}

/** A later ID typed on the way from (or back to) this one, once this one was looked up. */
async function typedSince(
	ctx: ILoadOptionsFunctions,
	agentId: string,
): Promise<string | undefined> {
	const typed = latestTyped.get(await replyKey(ctx, 'agent typed in the Agent field'));
	if (!typed || !onTheWay(typed.agentId, agentId)) return undefined;
	return Date.now() - typed.at > TYPED_AGENT.typingMs ? undefined : typed.agentId;
}

/** At most this many IDs are followed by one lookup (a person typing on while it is answered). */
const MAX_FOLLOWED = 5;

/**
 * The agent the form follows (see above), or undefined while no agent is given; `lookup` names the
 * method asking (each of n8n's lookups of the form asks on its own). `settle`: wait
 * for a typed ID to stand, and answer for the latest ID the editor asked for (a form where a
 * lookup is asked on every change: Execute's Answers). Without it (a form of dropdowns only, which
 * n8n's editor does not ask again while their answer is pending, so a held lookup would keep the
 * ID it was asked for) the lookup answers at once for its own ID.
 */
export async function formAgent(
	ctx: ILoadOptionsFunctions,
	lookup: string,
	{ settle = true }: { settle?: boolean } = {},
): Promise<FormAgent | undefined> {
	const given = currentAgentId(ctx);
	if (!given) return undefined;
	if (!settle || !typedMode(ctx)) return await lookUp(ctx, given);
	let agentId = await settledId(ctx, given, lookup);
	for (let followed = 0; ; followed++) {
		const form = await lookUp(ctx, agentId);
		// typed on while the platform answered: the answer is for the ID typed last
		const later = followed < MAX_FOLLOWED ? await typedSince(ctx, agentId) : undefined;
		if (later === undefined) return form;
		agentId = await settledId(ctx, later);
	}
}
