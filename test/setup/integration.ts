import { resetPaces } from '../../nodes/AgentPlatform/transport/pace';

// Integration tests talk to the emulator over loopback; some runs are time-scaled but still take seconds.
jest.setTimeout(60_000);

// The credential's pace is process-wide state (transport/pace.ts): each test starts from the
// credential's Requests per Second, not from what an earlier test's 429s taught it.
beforeEach(() => resetPaces());
