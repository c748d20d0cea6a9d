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
