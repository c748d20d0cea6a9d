/**
 * File and Agent File operations against the emulator, through n8n's real execution machinery
 * (test/infra/n8n/): the streamed upload (compared byte for byte with the `form-data`
 * package's encoding), processing and waiting for it, paging, the file picker, linking files
 * to agents, and every check that must refuse a file before anything is sent.
 *
 * This file: Agent File → Link, List, Unlink.
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { byId, credentialsFor } from '../../infra/n8n/credentials';
import { runNode } from '../../infra/n8n/runNode';
import { seedFiles } from '../../infra/seedFiles';
import { CHAT_AGENT, emu, posts, uploadThroughNode } from './file.shared';

describe('Agent File → Link, List, Unlink', () => {
	it('links several files, lists them one item each, unlinks one', async () => {
		const a = await uploadThroughNode('a.txt');
		const b = await uploadThroughNode('b.md');
		const agentId = byId(CHAT_AGENT);

		let run = await runNode({
			parameters: {
				resource: 'agentFile',
				operation: 'link',
				agentId,
				files: {
					values: [
						{ fileId: byId(String(a.id)) },
						{ fileId: { __rl: true, mode: 'list', value: String(b.id) } },
						{ fileId: byId(String(a.id)) },
					],
				},
			},
			credentials: credentialsFor(emu),
		});
		expect(run.error).toBeUndefined();
		expect(run.outputs[0]).toHaveLength(1);
		expect(run.outputs[0][0].json).toMatchObject({
			id: CHAT_AGENT,
			status: 'completed',
			files_count: { total: 2, completed: 0, failed: 0, in_progress: 2 },
		});
		expect(posts(`/agents/${CHAT_AGENT}/files`)[0].body).toEqual({ file_ids: [a.id, b.id] });

		run = await runNode({
			parameters: { resource: 'agentFile', operation: 'getAll', agentId },
			credentials: credentialsFor(emu),
		});
		expect(run.outputs[0].map((i) => [i.json.id, i.json.filename, i.json.agent_id])).toEqual([
			[a.id, 'a.txt', CHAT_AGENT],
			[b.id, 'b.md', CHAT_AGENT],
		]);

		run = await runNode({
			parameters: {
				resource: 'agentFile',
				operation: 'unlink',
				agentId,
				fileId: byId(String(a.id)),
			},
			credentials: credentialsFor(emu),
		});
		expect(run.outputs[0][0].json).toMatchObject({
			id: CHAT_AGENT,
			removed: true,
			file: { id: a.id },
		});
		expect(emu.state.agents.get(CHAT_AGENT)!.fileIds).toEqual([b.id]);
		expect(emu.state.files.has(Number(a.id))).toBe(true); // unlinking keeps the file

		run = await runNode({
			parameters: {
				resource: 'agentFile',
				operation: 'unlink',
				agentId,
				fileId: byId(String(a.id)),
			},
			credentials: credentialsFor(emu),
		});
		expect(run.error!.message).toBe(
			`The platform could not find file ${a.id} among the files of agent ${CHAT_AGENT}`,
		);
	});

	it('List of an agent without files outputs no item', async () => {
		const run = await runNode({
			parameters: { resource: 'agentFile', operation: 'getAll', agentId: byId(CHAT_AGENT) },
			credentials: credentialsFor(emu),
		});
		expect(run.error).toBeUndefined();
		expect(run.outputs[0] ?? []).toEqual([]);
	});

	it("A node saved with Get Many's old value `list` (version 1) runs as Get Many: the same request, the same items", async () => {
		const ids = seedFiles(emu, 3);
		emu.state.agents.get(CHAT_AGENT)!.fileIds = [ids[0], ids[2]];
		const runAs = async (operation: string) => {
			emu.clearRequests();
			const run = await runNode({
				parameters: { resource: 'agentFile', operation, agentId: byId(CHAT_AGENT) },
				credentials: credentialsFor(emu),
				typeVersion: 1,
			});
			expect(run.error).toBeUndefined();
			return {
				items: run.outputs[0].map((item) => item.json),
				requests: emu.requests.map((r) => `${r.method} ${r.path}`),
			};
		};
		const getAll = await runAs('getAll');
		expect(getAll.items.map((file) => [file.id, file.agent_id])).toEqual([
			[ids[0], CHAT_AGENT],
			[ids[2], CHAT_AGENT],
		]);
		expect(getAll.requests).toEqual([`GET /agents/${CHAT_AGENT}/files`]);
		expect(await runAs('list')).toEqual(getAll);
	});

	it("Link refuses a file ID that is not a number before any request; an unknown file is the platform's 422", async () => {
		let run = await runNode({
			parameters: {
				resource: 'agentFile',
				operation: 'link',
				agentId: byId(CHAT_AGENT),
				files: {
					values: [
						{ fileId: byId('12') },
						{ fileId: { __rl: true, mode: 'list', value: 'notes.txt' } },
					],
				},
			},
			credentials: credentialsFor(emu),
		});
		expect(run.error).toBeInstanceOf(NodeOperationError);
		expect(run.error!.message).toBe('The file number 2 "notes.txt" is not a valid ID (item 1)');
		expect(emu.requests).toEqual([]);

		run = await runNode({
			parameters: {
				resource: 'agentFile',
				operation: 'link',
				agentId: byId(CHAT_AGENT),
				files: { values: [] },
			},
			credentials: credentialsFor(emu),
		});
		expect(run.error!.message).toBe('No file to link: add at least one file (item 1)');
		expect(emu.requests).toEqual([]);

		run = await runNode({
			parameters: {
				resource: 'agentFile',
				operation: 'link',
				agentId: byId(CHAT_AGENT),
				files: { values: [{ fileId: byId(424242) }] },
			},
			credentials: credentialsFor(emu),
		});
		expect(run.error).toBeInstanceOf(NodeApiError);
		expect(run.error!.message).toBe(
			'The platform refused the request: The selected file_ids.0 is invalid.',
		);
	});
});
