/**
 * freePort (dev/loopback.ts) hands a port to one process of the machine only: picked at random in
 * ten thousand ports, 300 picks would repeat one nearly always without the claims (the birthday
 * bound: about 99 %); a process beside this one (a jest worker, a second test run) gets none of
 * them either.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

import { freePort } from '../../dev/loopback';

describe('freePort', () => {
	it('never hands out one port twice, in this process or another', async () => {
		const here: number[] = [];
		for (let i = 0; i < 300; i++) here.push(await freePort());
		expect(new Set(here).size).toBe(here.length);

		const script = `require(${JSON.stringify(join(__dirname, '../../dev/loopback.ts'))}).freePort`;
		const other = JSON.parse(
			execFileSync(
				process.execPath,
				[
					'-r',
					'ts-node/register/transpile-only',
					'-e',
					`(async () => { const f = ${script}; const p = []; for (let i = 0; i < 100; i++) p.push(await f()); console.log(JSON.stringify(p)); })()`,
				],
				{ encoding: 'utf8' },
			),
		) as number[];
		expect(other.filter((port) => here.includes(port))).toEqual([]);
		expect(new Set(other).size).toBe(other.length);
	});
});
