/**
 * The list of end-to-end files that use the line's shared n8n (test/setup/e2eLines.ts): each one
 * exists and is an end-to-end file; a file not listed fails in n8nOfLine, naming the list.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { REPO_ROOT } from '../../dev/n8n/harness';
import { SHARED_N8N_FILES, usesSharedN8n } from '../setup/e2eLines';

it.each(SHARED_N8N_FILES)('%s exists and is an end-to-end or measure file', (file) => {
	expect(file).toMatch(/^test\/(e2e\/[a-z0-9-]+\.e2e|measure\/[a-z0-9-]+\.measure)\.test\.ts$/);
	expect(existsSync(join(REPO_ROOT, file))).toBe(true);
});

it('knows a listed file by its absolute path, and no other', () => {
	expect(usesSharedN8n(join(REPO_ROOT, 'test/e2e/examples.e2e.test.ts'), REPO_ROOT)).toBe(true);
	expect(usesSharedN8n(join(REPO_ROOT, 'test/e2e/queue.e2e.test.ts'), REPO_ROOT)).toBe(false);
});
