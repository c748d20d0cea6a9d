/**
 * Opening examples in n8n's editor changes nothing (editor.examples.ts). While they open, the minute
 * passes that the held lookups' case needs (editor.held.ts).
 * Run: E2E_N8N_LINES=2 npx jest test/e2e/editor-examples.e2e.test.ts --selectProjects e2e
 * @slow (minutes: started first when jest has no times of a run before)
 */
import { openingExamples } from './editor.examples';
import { useHeldLookups } from './editor.held';

openingExamples(useHeldLookups);
