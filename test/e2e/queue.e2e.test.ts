/**
 * Every queue-mode case, on n8n 2.x, on one set-up (queue.cases.ts): the webhook processor, the
 * workers and the trigger, four workers on one API key, a chat with Redis Chat Memory across
 * workers, then the faults (the main and Redis restarted, a worker killed). Queue mode is n8n's
 * own machinery, the same on 1.x, where the nodes' own paths are run by executions and trigger.
 * Run: E2E_N8N_LINES=2 npx jest test/e2e/queue.e2e.test.ts --selectProjects e2e
 * @slow (minutes: started first when jest has no times of a run before)
 */
import { queueModeCases } from './queue.cases';

queueModeCases('2.x');
