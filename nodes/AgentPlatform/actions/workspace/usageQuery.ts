import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { inItem } from '../../helpers/input/parameters';

/** The platform's relative windows (`range`), each ending with the current day. */
export const USAGE_PERIODS = ['1d', '7d', '30d'];
/** The agent types the platform filters by (`type`); `all` is the same as no filter. */
export const USAGE_TYPES = ['chat', 'code', 'image', 'text', 'video', 'voiceover'];
/** The longest custom range the platform lists, in days, both dates included. */
export const MAX_USAGE_DAYS = 90;

const DAY_MS = 86_400_000;

type Reader = Pick<IExecuteFunctions, 'getNodeParameter' | 'getNode'>;

function refuse(ctx: Reader, message: string, itemIndex: number, description: string): never {
	throw new NodeOperationError(ctx.getNode(), inItem(message, itemIndex), {
		itemIndex,
		description,
	});
}

/**
 * A date parameter as the calendar date it names (`YYYY-MM-DD`): the date part of what n8n's date
 * picker or an expression gives (text, a JavaScript Date, or a Luxon DateTime); undefined when empty.
 */
function calendarDate(ctx: Reader, name: string, label: string, itemIndex: number) {
	const raw = ctx.getNodeParameter(name, itemIndex, '') as unknown;
	if (raw === undefined || raw === null || String(raw).trim() === '') return undefined;
	let text: string;
	if (raw instanceof Date) text = Number.isNaN(raw.getTime()) ? '' : raw.toISOString();
	else if (typeof (raw as { toISODate?: unknown }).toISODate === 'function')
		text = String((raw as { toISODate: () => string | null }).toISODate() ?? '');
	else text = String(raw).trim();
	const date = /^\d{4}-\d{2}-\d{2}(?:$|[T ])/.test(text) ? text.slice(0, 10) : '';
	const ms = Date.parse(`${date}T00:00:00Z`);
	// a date that rolls over (2026-02-30 is parsed as March 2nd by some engines) is no date
	if (!date || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== date) {
		refuse(
			ctx,
			`The ${label} "${String(raw)}" is not a date`,
			itemIndex,
			'Pick a date, or give one as YYYY-MM-DD, e.g. 2026-11-01.',
		);
	}
	return { date, ms };
}

/** Start Date and End Date: both given, the end not before the start, at most 90 days. */
function readDateRange(ctx: Reader, itemIndex: number): IDataObject {
	const start = calendarDate(ctx, 'startDate', 'Start Date', itemIndex);
	const end = calendarDate(ctx, 'endDate', 'End Date', itemIndex);
	if (!start || !end) {
		refuse(
			ctx,
			`The ${start ? 'End' : 'Start'} Date is empty`,
			itemIndex,
			'A custom date range needs both a Start Date and an End Date (both included).',
		);
	}
	if (end.ms < start.ms) {
		refuse(
			ctx,
			`The End Date ${end.date} is before the Start Date ${start.date}`,
			itemIndex,
			'Swap the two dates: the range runs from the Start Date to the End Date, both included.',
		);
	}
	const days = (end.ms - start.ms) / DAY_MS + 1;
	if (days > MAX_USAGE_DAYS) {
		refuse(
			ctx,
			`The dates from Start Date ${start.date} to End Date ${end.date} span ${days} days; the platform lists at most ${MAX_USAGE_DAYS}`,
			itemIndex,
			`Choose a range of at most ${MAX_USAGE_DAYS} days (both dates included), or run the node once per range.`,
		);
	}
	return { start_date: start.date, end_date: end.date };
}

/**
 * Get Usage's query, checked before any request: the Period (`range`) or the custom dates
 * (`start_date`, `end_date`), and the filters User ID (`user_id`) and Type (`type`).
 */
export function readUsageQuery(ctx: Reader, itemIndex: number): IDataObject {
	const period = String(ctx.getNodeParameter('period', itemIndex, '30d') ?? '').trim();
	let qs: IDataObject;
	if (period === 'custom') qs = readDateRange(ctx, itemIndex);
	else if (USAGE_PERIODS.includes(period)) qs = { range: period };
	else {
		refuse(
			ctx,
			`The Period "${period}" is not one the platform knows`,
			itemIndex,
			'Use 1d (last day), 7d (last 7 days), 30d (last 30 days) or custom (Start Date and End Date).',
		);
	}
	const filters = ctx.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const userId = String(filters.userId ?? '').trim();
	if (userId) {
		if (!/^\d+$/.test(userId)) {
			refuse(
				ctx,
				`The User ID "${userId}" is not a number`,
				itemIndex,
				"Give the platform's numeric ID of the user, or remove the filter to list every user's executions you may see.",
			);
		}
		qs.user_id = Number(userId);
	}
	const type = String(filters.type ?? '').trim();
	if (type && type !== 'all') {
		if (!USAGE_TYPES.includes(type)) {
			refuse(
				ctx,
				`The Type "${type}" is not an agent type the platform knows`,
				itemIndex,
				`Use one of ${USAGE_TYPES.join(', ')}, or remove the filter.`,
			);
		}
		qs.type = type;
	}
	return qs;
}
