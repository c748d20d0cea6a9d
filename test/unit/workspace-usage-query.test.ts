/**
 * Workspace → Get Usage's query, read and checked before any request (actions/workspace/usageQuery.ts):
 * each Period as production's `range`, the custom dates as `start_date`/`end_date` (YYYY-MM-DD, both
 * included, at most 90 days, the end not before the start, both together), and the filters. The
 * expected queries are written by hand from production's docs ("Workspace usage").
 */
import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { DateTime } from 'luxon';

import { readUsageQuery } from '../../nodes/AgentPlatform/actions/workspace/usageQuery';

const node: INode = {
	id: 'usage',
	name: 'Agent Platform',
	type: 'n8n-nodes-agent-platform.agentPlatform',
	typeVersion: 1.3,
	position: [0, 0],
	parameters: {},
};

/** The node's parameters as n8n hands them over (after expressions resolved). */
function query(parameters: Record<string, unknown>, itemIndex = 0) {
	return readUsageQuery(
		{
			getNode: () => node,
			getNodeParameter: ((name: string, _item: number, fallback?: unknown) =>
				parameters[name] ?? fallback) as never,
		},
		itemIndex,
	);
}

function refusal(parameters: Record<string, unknown>, itemIndex = 0): NodeOperationError {
	try {
		query(parameters, itemIndex);
	} catch (error) {
		expect(error).toBeInstanceOf(NodeOperationError);
		return error as NodeOperationError;
	}
	throw new Error('not refused');
}

describe('Get Usage: the Period', () => {
	it.each(['1d', '7d', '30d'])('%s is sent as range', (period) => {
		expect(query({ period })).toEqual({ range: period });
	});

	it('is the last 30 days when not set (the platform’s default)', () => {
		expect(query({})).toEqual({ range: '30d' });
	});

	it('refuses a period from an expression that the platform does not know', () => {
		expect(refusal({ period: '14d' }, 2).message).toBe(
			'The Period "14d" is not one the platform knows (item 3)',
		);
	});
});

describe('Get Usage: a custom date range', () => {
	const custom = (startDate: unknown, endDate: unknown) => ({
		period: 'custom',
		startDate,
		endDate,
	});

	it("sends the dates of n8n's date picker as YYYY-MM-DD, not range", () => {
		expect(query(custom('2026-11-01T00:00:00', '2026-11-28T00:00:00'))).toEqual({
			start_date: '2026-11-01',
			end_date: '2026-11-28',
		});
	});

	it('takes dates from expressions: plain text, a Luxon DateTime, a JavaScript Date', () => {
		expect(
			query(
				custom(
					DateTime.fromISO('2026-10-01T15:30:00', { zone: 'utc' }),
					new Date(Date.UTC(2026, 9, 2, 8)),
				),
			),
		).toEqual({ start_date: '2026-10-01', end_date: '2026-10-02' });
		expect(query(custom('2026-10-01', '2026-10-01 23:00'))).toEqual({
			start_date: '2026-10-01',
			end_date: '2026-10-01',
		});
	});

	it('one day (the same date twice) and 90 days, both dates included, are allowed', () => {
		expect(query(custom('2026-03-01', '2026-03-01'))).toEqual({
			start_date: '2026-03-01',
			end_date: '2026-03-01',
		});
		// 31 + 28 + 31 days of 2026
		expect(query(custom('2026-01-01', '2026-03-31'))).toEqual({
			start_date: '2026-01-01',
			end_date: '2026-03-31',
		});
		// a leap year: 2028-02-29 exists; 2028-01-01 to 2028-03-30 is 31 + 29 + 30 = 90 days
		expect(query(custom('2028-01-01', '2028-03-30')).end_date).toBe('2028-03-30');
	});

	it('refuses 91 days, naming both parameters and the item', () => {
		const error = refusal(custom('2028-01-01', '2028-03-31'), 1);
		expect(error.message).toBe(
			'The dates from Start Date 2028-01-01 to End Date 2028-03-31 span 91 days; the platform lists at most 90 (item 2)',
		);
		expect(error.description).toMatch(/at most 90 days/);
	});

	it('refuses a year', () => {
		expect(refusal(custom('2025-12-01', '2026-11-30')).message).toMatch(/span 365 days/);
	});

	it('refuses an end before the start', () => {
		expect(refusal(custom('2026-11-28', '2026-11-27')).message).toBe(
			'The End Date 2026-11-27 is before the Start Date 2026-11-28 (item 1)',
		);
	});

	it('refuses one date without the other', () => {
		expect(refusal(custom('2026-11-01', '')).message).toBe('The End Date is empty (item 1)');
		expect(refusal(custom(undefined, '2026-11-01')).message).toBe(
			'The Start Date is empty (item 1)',
		);
		expect(refusal(custom('', '')).message).toBe('The Start Date is empty (item 1)');
	});

	it.each([['2026-02-29'], ['2026-13-01'], ['yesterday'], ['01/11/2026'], ['2026-1-5']])(
		'refuses %s, which is not a date',
		(date) => {
			const error = refusal(custom(date, '2026-11-01'));
			expect(error.message).toBe(`The Start Date "${date}" is not a date (item 1)`);
			expect(error.description).toMatch(/YYYY-MM-DD/);
		},
	);

	it('ignores the dates when the Period is not custom', () => {
		expect(query({ period: '7d', startDate: '2020-01-01', endDate: '2026-01-01' })).toEqual({
			range: '7d',
		});
	});
});

describe('Get Usage: the filters', () => {
	it('sends the User ID as a number and the Type', () => {
		expect(query({ period: '7d', filters: { userId: ' 12 ', type: 'image' } })).toEqual({
			range: '7d',
			user_id: 12,
			type: 'image',
		});
	});

	it('sends no type for "all" (the platform: all or omitted is no type filter)', () => {
		expect(query({ filters: { type: 'all' } })).toEqual({ range: '30d' });
	});

	it('refuses a User ID that is not a whole number, and an unknown type', () => {
		expect(refusal({ filters: { userId: 'ana@example.com' } }).message).toBe(
			'The User ID "ana@example.com" is not a number (item 1)',
		);
		expect(refusal({ filters: { userId: '-3' } }).message).toBe(
			'The User ID "-3" is not a number (item 1)',
		);
		expect(refusal({ filters: { type: 'audio' } }).message).toBe(
			'The Type "audio" is not an agent type the platform knows (item 1)',
		);
	});
});
