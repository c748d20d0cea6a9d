import { setSafeRegexEngine } from 'n8n-workflow';

import { PACING, resetPaces } from '../../nodes/AgentPlatform/transport/pace';

// Integration tests talk to the emulator over loopback; some runs are time-scaled but still take seconds.
jest.setTimeout(60_000);

// The credential's pace is process-wide state (transport/pace/): each test starts from the
// credential's Requests per Second, not from what an earlier test's 429s taught it.
// The slow start of a pace that knows nothing of the platform (one more request in flight per
// answer) is off, so that tests of concurrency (Batch Size, paging) see it from the first request;
// learned-pace, cold-pace and pace-slots (test/integration/across-resources/) turn it on.
const slowStartAnswers = PACING.slowStartAnswers;
beforeEach(() => {
	resetPaces();
	PACING.slowStartAnswers = 0;
});
afterAll(() => (PACING.slowStartAnswers = slowStartAnswers));

// n8n-workflow runs each regular expression of its own (a resource locator's, an expression's) in a
// vm with a 250 ms wall-clock limit; on a machine busy beside the tests that limit is reached by
// waiting for the CPU, not by the expression ("Regular expression execution timed out"). The
// in-process n8n (test/infra/n8n/) sets the plain engine, as n8n's backend sets its own: the guard
// is n8n's, not what these tests test.
setSafeRegexEngine({
	exec: (pattern, input, flags) => new RegExp(pattern, flags).exec(input),
	test: (pattern, input, flags) => new RegExp(pattern, flags).test(input),
	replace: (pattern, input, flags, replacement) =>
		input.replace(new RegExp(pattern, flags), replacement),
	matchAll: (pattern, input, flags) => [
		...input.matchAll(new RegExp(pattern, flags?.includes('g') ? flags : `${flags ?? ''}g`)),
	],
	split: (pattern, input, flags) => input.split(new RegExp(pattern, flags)),
});
