/**
 * The bad-input table (docs/bad-input.md), row by row: every parameter the nodes check before sending, with
 * the message it gives, in-process n8n (test/infra/n8n/) against the emulator. A row checked
 * locally sends nothing at all (the emulator's request record stays empty); a row checked against
 * the agent's own form (its questions and options) sends at most `GET /agents/{id}` (the form is
 * kept in the process after its first read), never the run.
 * The last test checks that the table lists each row tested here.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { byId, credentialsFor } from '../../infra/n8n/credentials';
import { runNode } from '../../infra/n8n/runNode';
import { triggerLifecycle } from '../../infra/n8n/trigger';
import { emu, expr, Row } from './bad-input.shared';
import { BAD_INPUT_INPUTS } from './bad-input.rows-inputs';
import { BAD_INPUT_RECORDS } from './bad-input.rows-records';

const ROWS: Row[] = [...BAD_INPUT_RECORDS, ...BAD_INPUT_INPUTS];

describe.each(ROWS)('$parameter', ({ cases }) => {
	it.each(cases.map((c) => [c.bad, c] as const))('%s', async (_bad, c) => {
		const { error } = await runNode({
			parameters: c.parameters(),
			items: c.items ? await c.items() : undefined,
			credentials: c.credentials?.() ?? credentialsFor(emu),
		});
		expect(error?.message).toBe(c.message);
		const sent = emu.requests.map((r) => `${r.method} ${r.path}`);
		if ((c.sends ?? 'nothing') === 'nothing') expect(sent).toEqual([]);
		else {
			expect(sent.length).toBeLessThanOrEqual(1);
			for (const request of sent) expect(request).toMatch(/^GET \/agents\/\d+$/);
		}
	});
});

describe('Agent (Agent Platform Trigger)', () => {
	it.each([
		['not a number', expr('abc'), 'The agent "abc" is not a valid ID'],
		['empty', expr(''), 'The agent is empty'],
	])('%s: activation fails before asking the platform anything', async (_bad, value, message) => {
		const trigger = await triggerLifecycle({
			parameters: { agentId: byId(value), options: {} },
			credentials: credentialsFor(emu),
		});
		await expect(trigger.activate()).rejects.toThrow(message);
		expect(emu.requests).toEqual([]);
	});
});

describe('docs/bad-input.md', () => {
	it('lists each row tested here in its table', () => {
		const table = readFileSync(
			path.join(__dirname, '..', '..', '..', 'docs', 'bad-input.md'),
			'utf8',
		);
		const firstColumns = table
			.split('\n')
			.filter((line) => line.startsWith('| '))
			.map((line) => line.split(' | ')[0].slice(2).trim());
		for (const parameter of [
			...ROWS.map((row) => row.parameter),
			'Agent (Agent Platform Trigger)',
		]) {
			expect(firstColumns).toContain(parameter);
		}
	});
});
