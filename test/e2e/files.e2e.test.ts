/**
 * Files in real n8n, with the packed package installed as n8n's community installer would:
 * a file read from disk by n8n's Read/Write Files node is uploaded (streamed) and processed,
 * linked to an agent, listed and unlinked; and File → Get Many with Return All over more than
 * three pages at per_page 100.
 *
 * Binary modes: each line's default, in the run's shared n8n of the line: n8n 2.x keeps binaries
 * on disk (filesystem); n8n 1.x in memory (the node then has no binary ID and reads the buffer).
 *
 * Run: npx jest --selectProjects e2e --runInBand test/e2e/files.e2e.test.ts   (E2E_N8N_LINES=2 for one line)
 * @lines 1.x 2.x (n8n 1.x keeps binaries in memory by default, 2.x on disk)
 */
import { createHash, randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { type PlatformEmulator, type RecordedMultipart } from '../../dev/emulator';
import {
	agentPlatformCredential,
	fixtureId,
	nodeItems,
	type N8nInstance,
	type N8nLine,
} from '../../dev/n8n/harness';
import { seedFiles } from '../infra/seedFiles';
import { loadWorkflow, describeEachLine } from './fixtures';
import { useLineN8n } from './lineN8n';
import { CHAT_AGENT } from '../../dev/emulator';

const API_KEY = 'e2e-files-key-7d2b10';
const WORKSPACE_ID = '42';
/** Seeded so that Return All needs 4 pages at per_page 100: 100, 100, 100 and a short one. */
const SEEDED_FILES = 321;
/** The file n8n reads from disk and uploads. */
const SAMPLE_NAME = 'sample report.pdf';
const SAMPLE_BYTES = 3 * 1024 * 1024 + 123;

const CREDENTIAL = { id: fixtureId('credFiles'), name: 'Agent Platform (files)' };
const WORKFLOW = { lifecycle: 'filesLifecycle01', getMany: 'filesGetManyAll1' };

interface BinaryMode {
	label: string;
	/** Whether n8n keeps the binary in its store (the item carries an ID) rather than in memory. */
	stored: boolean;
}

/** Each line's default binary mode (n8n 2.0 made disk the default outside queue mode). */
const MODES: Record<N8nLine['line'], BinaryMode> = {
	'2.x': { label: 'binaries on disk (default)', stored: true },
	'1.x': { label: 'binaries in memory (default)', stored: false },
};

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describeEachLine()('n8n $line ($version): files', (line) => {
	let emu: PlatformEmulator;
	let n8n: N8nInstance;
	let id: (fixtureId: string) => string;
	const sample = randomBytes(SAMPLE_BYTES);

	useLineN8n(
		line,
		{
			tag: 'files',
			// 20 virtual seconds per real second: processing (2 virtual seconds) takes 0.1 s.
			emulator: { apiKey: API_KEY, workspaceId: WORKSPACE_ID, timeScale: 20, maxStoredFiles: 1000 },
			credentials: (platform) => [agentPlatformCredential(platform, CREDENTIAL)],
			workflows: async (platform, files) => {
				seedFiles(platform, SEEDED_FILES);
				// Read/Write Files may only read where the n8n's N8N_RESTRICT_FILE_ACCESS_TO allows
				await writeFile(join(files, SAMPLE_NAME), sample);
				const vars = {
					CREDENTIAL_ID: CREDENTIAL.id,
					CREDENTIAL_NAME: CREDENTIAL.name,
					AGENT_ID: String(CHAT_AGENT),
					FILE_PATH: join(files, SAMPLE_NAME),
				};
				return [loadWorkflow('files-lifecycle', vars), loadWorkflow('files-get-many', vars)];
			},
		},
		(setUp) => ({ emu, n8n, id } = { ...setUp, id: setUp.fixture.id }),
	);

	test.each([MODES[line.line]])(
		'$label: a file read from disk is uploaded (streamed) and processed, linked, listed and unlinked',
		async ({ stored }) => {
			const before = emu.requests.length;
			const { run } = await n8n.executeOk(id(WORKFLOW.lifecycle));
			const requests = emu.requests.slice(before);

			// n8n kept the binary where this mode says (an ID in its store, or the data inline).
			const read = run.data.resultData.runData['Read File'][0].data!.main![0]![0];
			const binary = read.binary!.data as { id?: string; fileName?: string };
			expect(binary.fileName).toBe(SAMPLE_NAME);
			if (stored) expect(binary.id).toMatch(/^filesystem/);
			else expect(binary.id).toBeUndefined();

			// Upload: streamed multipart, exact length, the very bytes on disk; processed before it returned.
			const [uploaded] = nodeItems(run, 'Upload');
			expect(uploaded).toMatchObject({
				object: 'file',
				filename: SAMPLE_NAME,
				bytes: SAMPLE_BYTES,
				status: 'completed',
			});
			expect(Number(uploaded.credits)).toBeGreaterThan(0);
			const posts = requests.filter((r) => r.method === 'POST' && r.path === '/files');
			expect(posts).toHaveLength(1);
			expect(posts[0].headers['content-type']).toMatch(/^multipart\/form-data; boundary=axios-/);
			expect(posts[0].headers['transfer-encoding']).toBeUndefined();
			expect(Number(posts[0].headers['content-length']) - SAMPLE_BYTES).toBeLessThan(600);
			expect(posts[0].body as RecordedMultipart).toEqual({
				fields: { process: '1' },
				files: [
					{
						field: 'file',
						filename: SAMPLE_NAME,
						mimeType: 'application/pdf',
						bytes: SAMPLE_BYTES,
						sha256: sha256(sample),
					},
				],
			});
			expect(
				requests.filter((r) => r.method === 'GET' && r.path === `/files/${uploaded.id}`).length,
			).toBeGreaterThanOrEqual(1);

			// Link → List → Unlink on the agent.
			const [set] = nodeItems(run, 'Link');
			expect(set).toMatchObject({
				id: CHAT_AGENT,
				status: 'completed',
				files_count: { total: 1, completed: 1 },
			});
			const listed = nodeItems(run, 'List');
			expect(listed.map((f) => [f.id, f.filename, f.agent_id])).toEqual([
				[uploaded.id, SAMPLE_NAME, CHAT_AGENT],
			]);
			const [unlinked] = nodeItems(run, 'Unlink');
			expect(unlinked).toMatchObject({ id: CHAT_AGENT, removed: true, file: { id: uploaded.id } });

			expect(emu.state.agents.get(CHAT_AGENT)!.fileIds).toEqual([]);
			expect(emu.state.files.get(Number(uploaded.id))!.sha256).toBe(sha256(sample));
			expect(requests.map((r) => `${r.method} ${r.path.replace(/\d+/g, 'N')}`)).toEqual([
				'POST /files',
				...requests
					.filter((r) => r.method === 'GET' && r.path.startsWith('/files/'))
					.map(() => 'GET /files/N'),
				'POST /agents/N/files',
				'GET /agents/N/files',
				'DELETE /agents/N/files/N',
			]);
		},
	);

	test('File → Get Many with Return All follows more than three pages at per_page 100', async () => {
		const before = emu.requests.length;
		const { run } = await n8n.executeOk(id(WORKFLOW.getMany));

		const items = nodeItems(run, 'Get Many');
		const stored = [...emu.state.files.values()];
		expect(stored.length).toBeGreaterThan(300);
		expect(items.map((i) => Number(i.id)).sort((a, b) => a - b)).toEqual(
			stored.map((f) => f.id).sort((a, b) => a - b),
		);
		const pages = emu.requests
			.slice(before)
			.filter((r) => r.method === 'GET' && r.path === '/files');
		expect(pages.length).toBeGreaterThan(3);
		expect(pages.map((r) => Number(r.query.page))).toEqual(pages.map((_, i) => i + 1));
		expect(pages.every((r) => r.query.per_page === '100')).toBe(true);
		// it stopped at the first short page
		expect(pages.length).toBe(Math.floor(stored.length / 100) + 1);
	});
});
