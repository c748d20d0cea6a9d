/**
 * The features beyond the spec inside real n8n 1.x and 2.x, with the packed package installed as
 * n8n's community installer does, against the emulator: a generated image downloaded into n8n's
 * binary data (sha256 taken by n8n's own Crypto node, MIME type and name on the binary), the
 * history of a two-turn session read back in order with Agent Response → Get Many, memory
 * collections reaching the run, and a JSON answer broken once, corrected in the same session and
 * validated (which also proves the bundled JSON Schema validator loads from dist/vendor).
 * Run: E2E_N8N_LINES=2 npx jest --selectProjects e2e --runInBand test/e2e/beyond-spec.e2e.test.ts
 */
import { GENERATED_PNG, type PlatformEmulator } from '../../dev/emulator';
import {
	agentPlatformCredential,
	fixtureId,
	nodeItems,
	type N8nInstance,
} from '../../dev/n8n/harness';
import { useLineN8n, type LineN8n } from './lineN8n';
import { CHAT_AGENT, IMAGE_AGENT } from '../../dev/emulator';
import { describeEachLine } from './fixtures';

const API_KEY = 'e2e-beyond-key-5a1e';
const WORKSPACE_ID = '42';
const CREDENTIAL = { id: fixtureId('credBeyond'), name: 'Agent Platform (emulator)' };
const WORKFLOWS = {
	image: fixtureId('beyondImage'),
	session: fixtureId('beyondSession'),
	collections: fixtureId('beyondMemColl'),
	json: fixtureId('beyondJson'),
};

type NodeSpec = {
	name: string;
	type?: string;
	typeVersion?: number;
	parameters: Record<string, unknown>;
};

/** A Manual Trigger followed by the given nodes in a chain (Agent Platform nodes unless typed). */
function chain(id: string, name: string, nodes: NodeSpec[]) {
	const all = [
		{
			name: 'Manual Trigger',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			parameters: {},
		},
		...nodes,
	].map((node, index) => ({
		id: `6b1e2c3d-0018-4a00-8000-${String(index + 1).padStart(12, '0')}`,
		name: node.name,
		type: node.type ?? 'n8n-nodes-agent-platform.agentPlatform',
		typeVersion: node.typeVersion ?? 1,
		position: [index * 220, 0],
		parameters: node.parameters,
		...(node.type ? {} : { credentials: { agentPlatformApi: CREDENTIAL } }),
	}));
	const connections: Record<string, unknown> = {};
	for (let i = 0; i + 1 < all.length; i++) {
		connections[all[i].name] = { main: [[{ node: all[i + 1].name, type: 'main', index: 0 }]] };
	}
	return { id, name, active: false, nodes: all, connections, settings: { executionOrder: 'v1' } };
}

const chatAgent = { __rl: true, mode: 'id', value: String(CHAT_AGENT) };

describeEachLine()('n8n $line ($version): beyond the spec', (line) => {
	let emu: PlatformEmulator;
	let fixture: LineN8n;
	let n8n: N8nInstance;
	let collectionId: number;

	useLineN8n(
		line,
		{
			tag: 'beyond-spec',
			emulator: {
				apiKey: API_KEY,
				workspaceId: WORKSPACE_ID,
				timeScale: 10,
			},
			credentials: (platform) => [agentPlatformCredential(platform, CREDENTIAL)],
			workflows: async (started) => {
				const created = await fetch(`${started.url}/memory-collections`, {
					method: 'POST',
					headers: {
						authorization: `Bearer ${API_KEY}`,
						'x-workspace-id': WORKSPACE_ID,
						'content-type': 'application/json',
					},
					body: JSON.stringify({ name: 'e2e-customers' }),
				});
				collectionId = ((await created.json()) as { collection: { id: number } }).collection.id;
				const size = String(
					started.state.agents.get(IMAGE_AGENT)!.questions.find((q) => q.name === 'size')!
						.options![0],
				);
				return [
					chain(WORKFLOWS.image, 'Generated image to binary', [
						{
							name: 'Create the image',
							parameters: {
								resource: 'agent',
								operation: 'execute',
								agentId: { __rl: true, mode: 'id', value: String(IMAGE_AGENT) },
								answers: {
									mappingMode: 'defineBelow',
									value: { prompt: 'An otter on a rock', size },
								},
								options: { downloadGeneratedFiles: true },
							},
						},
						{
							name: 'Hash it',
							type: 'n8n-nodes-base.crypto',
							typeVersion: 1,
							parameters: {
								action: 'hash',
								type: 'SHA256',
								binaryData: true,
								binaryPropertyName: 'data',
								dataPropertyName: 'sha256',
								encoding: 'hex',
							},
						},
					]),
					chain(WORKFLOWS.session, 'Two turns, then the history', [
						{
							name: 'First turn',
							parameters: {
								resource: 'agent',
								operation: 'execute',
								agentId: chatAgent,
								message: 'Name three otters',
							},
						},
						{
							name: 'Second turn',
							parameters: {
								resource: 'agent',
								operation: 'execute',
								agentId: chatAgent,
								message: 'Tell me more about the second one',
								options: { rootId: '={{ $json.root_id }}' },
							},
						},
						{
							name: 'History',
							parameters: {
								resource: 'agentResponse',
								operation: 'getAll',
								returnAll: true,
								filters: { rootId: '={{ $json.root_id }}' },
							},
						},
					]),
					chain(WORKFLOWS.collections, 'Memory collections on a run', [
						{
							name: 'Run with memories',
							parameters: {
								resource: 'agent',
								operation: 'execute',
								agentId: chatAgent,
								message: 'What do you know about our customers?',
								options: {
									memoryCollections: {
										collections: [
											{ collection: { __rl: true, mode: 'id', value: String(collectionId) } },
										],
									},
								},
							},
						},
					]),
					chain(WORKFLOWS.json, 'A JSON answer', [
						{
							name: 'Ask for JSON',
							parameters: {
								resource: 'agent',
								operation: 'execute',
								agentId: chatAgent,
								message: 'Describe an otter',
								outputFormat: 'json',
								jsonSchemaExample: '{"name": "Otter", "age": 8}',
							},
						},
					]),
				];
			},
		},
		(setUp) => ({ emu, fixture, n8n } = setUp),
	);

	test('a generated image becomes an n8n binary with its bytes, name and MIME type', async () => {
		// The emulator's image agent returns a real PNG on its storage host (another origin: no API key).
		const { run } = await n8n.executeOk(fixture.id(WORKFLOWS.image));
		const [hashed] = nodeItems(run, 'Hash it');
		expect(hashed.sha256).toBe(GENERATED_PNG.sha256);
		const downloads = emu.storageRequests.filter((r) => r.path.startsWith('/generated/'));
		expect(downloads.map((r) => [r.status, r.headers.authorization])).toEqual([[200, undefined]]);
		const [created] = run.data.resultData.runData['Create the image'][0].data?.main?.[0] ?? [];
		expect(created?.binary?.data).toMatchObject({
			mimeType: GENERATED_PNG.mimeType,
			fileName: GENERATED_PNG.name,
		});
	});

	test('the history of a two-turn session, oldest first', async () => {
		const { run } = await n8n.executeOk(fixture.id(WORKFLOWS.session));
		const [first] = nodeItems(run, 'First turn');
		const [second] = nodeItems(run, 'Second turn');
		const history = nodeItems(run, 'History');
		expect(history.map((r) => r.id)).toEqual([first.id, second.id]);
		expect(history.map((r) => r.input)).toEqual([
			'Name three otters',
			'Tell me more about the second one',
		]);
		expect(history.map((r) => r.output)).toEqual([first.output, second.output]);
	});

	test('memory collections reach the run', async () => {
		const { run } = await n8n.executeOk(fixture.id(WORKFLOWS.collections));
		const [item] = nodeItems(run, 'Run with memories');
		expect(emu.state.runs.get(Number(item.id))?.memoryCollections).toEqual([collectionId]);
		expect(String(item.output)).toContain(`memory collections: e2e-customers #${collectionId}`);
	});

	test('a JSON answer broken once is corrected in the same session and validated', async () => {
		emu.configureAgent(CHAT_AGENT, {
			outputs: ['{"name": "Otter", "age": ', '```json\n{"name": "Otter", "age": "8"}\n```'],
		});
		try {
			const { run } = await n8n.executeOk(fixture.id(WORKFLOWS.json));
			const [item] = nodeItems(run, 'Ask for JSON');
			expect(item).toMatchObject({
				output_json: { name: 'Otter', age: 8 },
				attempts: 2,
				coercions: ['age: "8" → 8'],
			});
			const runs = [...emu.state.runs.values()]
				.filter((r) => r.template_id === CHAT_AGENT)
				.slice(-2);
			expect(runs[1].root_id).toBe(runs[0].id);
			expect(item.credits).toBeCloseTo(Number(runs[0].credits) + Number(runs[1].credits), 6);
		} finally {
			emu.configureAgent(CHAT_AGENT, { outputs: [] });
		}
	});
});
