/**
 * GET /workspaces/usage: the workspace's agent executions, newest first (`created_at`, then `id`),
 * as production's docs describe them (docs/platform-assumptions.md, rows 13–15): the runs this
 * emulator made plus a seeded history of earlier days (archived and edited rows among them),
 * filtered by a window (`range` 1d | 7d | 30d, default 30d) or an inclusive `start_date`..`end_date`
 * of at most 90 days, by `user_id` and by agent `type`, paged by `page`/`per_page` (1–100, default
 * 20) with `has_more`, and cached 60 virtual seconds per workspace, query and page. The key's user
 * may not read other users' activity: their rows are not listed and asking for them is a 403.
 * A numeric workspace the key does not belong to is a 403 (auth.ts; other routes answer 422).
 */
import { formatMicro } from './clock';
import { HttpError, isIntString, json, validation } from './http';
import type { Ctx, Reply } from './http';
import type { EmulatorServices } from './services';
import { USER_ID, type StoredRun } from './types';

/** One listed execution, in production's documented fields. */
export interface UsageRow {
	id: number | string;
	created_at: string;
	user_id: number;
	type: string;
	status: 'succeeded' | 'failed';
	email: string;
	credits: number;
	name: string;
	slug: string;
	output: string;
	root_id: number | null;
	execution_origin: string | null;
}

export const USAGE_TYPES = ['all', 'chat', 'image', 'text', 'voiceover', 'video', 'code'];
export const USAGE_RANGES = ['1d', '7d', '30d'];
/** The longest custom range, in days counted inclusively (a range of one date is one day). */
export const MAX_RANGE_DAYS = 90;
export const USAGE_CACHE_SECONDS = 60;
/** The key's user, and a colleague in the same workspace whose runs the key may not read. */
export const USAGE_EMAIL = 'you@example.com';
export const COLLEAGUE_ID = 8;
const COLLEAGUE_EMAIL = 'colleague@example.com';

const HIDDEN_OUTPUT = 'This content is only available on Tess.';
const DELETED_OUTPUT = 'This item was deleted.';
const EDITED_OUTPUT = 'This item was edited.';
const DAY_MS = 86_400_000;

/**
 * The seeded history: [days before today, UTC time, agent id (or an archived agent), status,
 * credits, origin, kind, user]. Always at noon-ish of past days, so which window holds a row
 * does not depend on the hour a test runs.
 */
type SeedRow = [
	number,
	string,
	number | [string, string, string],
	'succeeded' | 'failed',
	number,
	string | null,
	'current' | 'archived' | 'edited',
	number?,
];
const SEEDED: SeedRow[] = [
	[1, '09:00', 1, 'succeeded', 0.42, 'web', 'current'],
	[1, '10:30', 3, 'succeeded', 1.25, 'api', 'current'],
	[2, '14:00', 2, 'succeeded', 4, 'web', 'current'],
	[2, '15:00', 1, 'succeeded', 0.7, 'web', 'current', COLLEAGUE_ID],
	[3, '08:15', 1, 'succeeded', 0.38, 'web', 'current'],
	[3, '09:40', 3, 'succeeded', 1, 'api', 'current', COLLEAGUE_ID],
	[4, '16:45', 5, 'failed', 0, 'api', 'current'],
	[5, '11:00', 3, 'succeeded', 0.9, null, 'current'],
	[6, '13:20', ['Narrator', 'narrator-77', 'voiceover'], 'succeeded', 2.5, 'web', 'archived'],
	[6, '18:00', 4, 'succeeded', 6, 'web', 'current'],
	[8, '12:00', 1, 'succeeded', 0.5, 'web', 'current'],
	[12, '10:00', 1, 'succeeded', 0.3, 'web', 'edited'],
	[20, '17:30', 2, 'succeeded', 3.5, 'api', 'current'],
	[45, '12:00', 3, 'succeeded', 1.1, 'web', 'current'],
];

interface UsageStore {
	seeded: UsageRow[];
	cache: Map<string, { at: number; body: unknown }>;
}
const stores = new WeakMap<EmulatorServices, UsageStore>();

function startOfDay(ms: number): number {
	return Math.floor(ms / DAY_MS) * DAY_MS;
}

function seededRows(core: EmulatorServices): UsageRow[] {
	const today = startOfDay(core.clock.nowMs());
	return SEEDED.map(([daysAgo, time, agent, status, credits, origin, kind, user], index) => {
		const [hours, minutes] = time.split(':').map(Number);
		const at = today - daysAgo * DAY_MS + (hours * 60 + minutes) * 60_000;
		const known = typeof agent === 'number' ? core.state.agents.get(agent) : undefined;
		const [name, slug, type] = Array.isArray(agent)
			? agent
			: [known?.title ?? `Agent ${agent}`, known?.slug ?? `agent-${agent}`, known?.type ?? 'text'];
		const userId = user ?? USER_ID;
		const id = kind === 'edited' ? `chat-edited-${900 + index}` : 500 + index;
		return {
			id,
			created_at: formatMicro(BigInt(at) * 1000n),
			user_id: userId,
			type,
			status,
			email: userId === USER_ID ? USAGE_EMAIL : COLLEAGUE_EMAIL,
			credits: status === 'succeeded' ? credits : 0,
			name,
			slug,
			output:
				kind === 'archived'
					? DELETED_OUTPUT
					: kind === 'edited'
						? EDITED_OUTPUT
						: ['image', 'video', 'voiceover'].includes(type)
							? `https://files.example.com/${slug}/${500 + index}`
							: HIDDEN_OUTPUT,
			root_id: type === 'chat' && kind !== 'edited' ? 500 + index : null,
			execution_origin: origin,
		};
	});
}

function storeOf(core: EmulatorServices): UsageStore {
	let store = stores.get(core);
	if (!store) stores.set(core, (store = { seeded: seededRows(core), cache: new Map() }));
	return store;
}

/** A run this emulator made, as the usage listing shows it (made through the API: origin `api`). */
function runRow(core: EmulatorServices, run: StoredRun): UsageRow {
	const agent = core.state.agents.get(run.template_id);
	const type = agent?.type ?? 'text';
	const succeeded = run.status === 'succeeded';
	return {
		id: run.id,
		created_at: run.created_at,
		user_id: USER_ID,
		type,
		status: succeeded ? 'succeeded' : 'failed',
		email: USAGE_EMAIL,
		credits: succeeded ? (run.credits ?? 0) : 0,
		name: agent?.title ?? `Agent ${run.template_id}`,
		slug: agent?.slug ?? `agent-${run.template_id}`,
		output: ['image', 'video', 'voiceover'].includes(type) ? run.output : HIDDEN_OUTPUT,
		root_id: type === 'chat' ? run.root_id : null,
		execution_origin: 'api',
	};
}

/** A `YYYY-MM-DD` that is a real date, as UTC midnight in ms; else a 422 naming the field. */
function dateField(query: Record<string, string>, field: string): number | undefined {
	const raw = query[field];
	if (raw === undefined || raw === '') return undefined;
	const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw.trim());
	const ms = match ? Date.UTC(+match[1], +match[2] - 1, +match[3]) : NaN;
	if (!match || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== raw.trim())
		throw validation(field, `The ${field.replace('_', ' ')} field must match the format Y-m-d.`);
	return ms;
}

/** The listed window [from, to] in ms: the custom dates (inclusive) or the range up to the end of today. */
function windowOf(core: EmulatorServices, query: Record<string, string>): [number, number] {
	const range = query.range ?? '';
	if (range !== '' && !USAGE_RANGES.includes(range))
		throw validation('range', 'The selected range is invalid.');
	const start = dateField(query, 'start_date');
	const end = dateField(query, 'end_date');
	if (start !== undefined && end === undefined)
		throw validation('end_date', 'The end date field is required when start date is present.');
	if (end !== undefined && start === undefined)
		throw validation('start_date', 'The start date field is required when end date is present.');
	if (start !== undefined && end !== undefined) {
		if (end < start)
			throw validation(
				'end_date',
				'The end date field must be a date after or equal to start date.',
			);
		if ((end - start) / DAY_MS + 1 > MAX_RANGE_DAYS)
			throw validation('end_date', `The date range may not be longer than ${MAX_RANGE_DAYS} days.`);
		return [start, end + DAY_MS - 1];
	}
	const endOfToday = startOfDay(core.clock.nowMs()) + DAY_MS - 1;
	const days = range === '1d' ? 1 : range === '7d' ? 7 : 30;
	return [endOfToday + 1 - days * DAY_MS, endOfToday];
}

function positiveInt(
	query: Record<string, string>,
	field: string,
	fallback: number,
	max?: number,
): number {
	const raw = query[field];
	if (raw === undefined || raw === '') return fallback;
	if (!isIntString(raw))
		throw validation(field, `The ${field.replace('_', ' ')} field must be an integer.`);
	const n = parseInt(raw, 10);
	if (n < 1) throw validation(field, `The ${field.replace('_', ' ')} field must be at least 1.`);
	if (max !== undefined && n > max)
		throw validation(
			field,
			`The ${field.replace('_', ' ')} field must not be greater than ${max}.`,
		);
	return n;
}

/** Newest first: `created_at` descending, then `id` descending (numbers before synthetic ids). */
function newestFirst(a: UsageRow, b: UsageRow): number {
	if (a.created_at !== b.created_at) return a.created_at < b.created_at ? 1 : -1;
	if (typeof a.id === 'number' && typeof b.id === 'number') return b.id - a.id;
	return String(b.id).localeCompare(String(a.id));
}

export function listUsage(ctx: Ctx): Reply {
	const { core, query } = ctx;
	const [from, to] = windowOf(core, query);
	const userRaw = query.user_id ?? '';
	if (userRaw !== '' && !isIntString(userRaw))
		throw validation('user_id', 'The user id field must be an integer.');
	if (userRaw !== '' && parseInt(userRaw, 10) !== USER_ID)
		throw new HttpError(403, { message: "You do not have permission to view other users' usage." });
	const type = query.type ?? '';
	if (type !== '' && !USAGE_TYPES.includes(type))
		throw validation('type', 'The selected type is invalid.');
	const page = positiveInt(query, 'page', 1);
	const perPage = positiveInt(query, 'per_page', 20, 100);

	const store = storeOf(core);
	const key = JSON.stringify([core.opts.workspaceId, Object.entries(query).sort()]);
	const now = core.clock.nowMs();
	const cached = store.cache.get(key);
	if (cached && now - cached.at < USAGE_CACHE_SECONDS * 1000) return json(200, cached.body);

	const rows = [...store.seeded, ...[...core.state.runs.values()].map((r) => runRow(core, r))]
		.filter((row) => row.user_id === USER_ID)
		.filter((row) => type === '' || type === 'all' || row.type === type)
		.filter((row) => {
			const at = Date.parse(row.created_at);
			return at >= from && at <= to;
		})
		.sort(newestFirst);
	// the service reads per_page + 1 rows: the extra one only says whether a page follows
	const window = rows.slice((page - 1) * perPage, page * perPage + 1);
	const body = {
		items: window.slice(0, perPage),
		has_more: window.length > perPage,
		page,
		per_page: perPage,
	};
	store.cache.set(key, { at: now, body });
	return json(200, body);
}
