/**
 * A chat with a Memory connected: requests per chat turn, in-process through n8n-core's real
 * execution machinery (runNode with a LangChain window memory, test/infra/n8n/chatMemory.ts),
 * against the emulator in the same process. Each turn is a run of its own, as a chat message is.
 * - Agent → Execute: requests to start runs per turn, over 10 turns of one session (target: 1.00:
 *   the session's root_id, no history sent again), and every turn after the first continuing it;
 * - Chat Completion: requests per turn (target: 1) and the most messages one request sent, against
 *   the memory's window (k turns: 2k earlier messages and the new one).
 */
import type { IDataObject } from 'n8n-workflow';

import type { PlatformEmulator } from '../../dev/emulator';
import { startEmulator } from '../../dev/emulator';
import { testMemory, type TestMemory } from '../infra/n8n/chatMemory';
import { byId, credentialsFor } from '../infra/n8n/credentials';
import { runNode } from '../infra/n8n/runNode';
import type { BenchOptions, BenchRow } from './common';
import { progress } from './common';
import { CHAT_AGENT } from '../../dev/emulator';

const TURNS = 10;
const WINDOW = 3;

async function turn(emu: PlatformEmulator, memory: TestMemory, operation: string, text: string) {
	const { error } = await runNode({
		typeVersion: 1.2,
		parameters: {
			resource: 'agent',
			operation,
			agentId: byId(String(CHAT_AGENT)),
			...emu.firstOptions(CHAT_AGENT),
			...(operation === 'chatCompletion' ? { message: text } : {}),
		},
		items: [{ json: { sessionId: 'bench', action: 'sendMessage', chatInput: text } }],
		credentials: credentialsFor(emu),
		memory: { nodeType: memory.nodeType },
	});
	if (error) throw error;
}

export async function benchChatMemory(_options: BenchOptions): Promise<BenchRow[]> {
	const emu = await startEmulator({ port: 0, quiet: true, timeScale: 50 });
	const posts = (suffix: string) =>
		emu.requests.filter((r) => r.method === 'POST' && r.path.endsWith(suffix));
	let executePerTurn: number;
	let continued: number;
	let completionPerTurn: number;
	let mostMessages: number;
	try {
		// the agent's definition is read once per process (kept 5 minutes): not part of a turn
		await turn(emu, testMemory(), 'execute', 'warm-up');
		emu.clearRequests();
		const memory = testMemory({ k: WINDOW });
		for (let i = 0; i < TURNS; i++) await turn(emu, memory, 'execute', `Message ${i + 1}`);
		const starts = posts('/execute').map((r) => r.body as IDataObject);
		executePerTurn = starts.length / TURNS;
		const rootId = starts[1]?.root_id;
		continued = starts
			.slice(1)
			.filter((b) => b.root_id === rootId && (b.messages as IDataObject[]).length === 1).length;
		progress(
			`chat memory: Execute ${executePerTurn.toFixed(2)} requests a turn, ${continued} of ${TURNS - 1} later turns by root_id ${String(rootId)}`,
		);

		emu.clearRequests();
		const window = testMemory({ k: WINDOW });
		for (let i = 0; i < TURNS; i++) await turn(emu, window, 'chatCompletion', `Message ${i + 1}`);
		const sent = posts('/chat/completions').map(
			(r) => (r.body as IDataObject).messages as unknown[],
		);
		completionPerTurn = sent.length / TURNS;
		mostMessages = Math.max(...sent.map((m) => m.length));
		progress(
			`chat memory: Chat Completion ${completionPerTurn.toFixed(2)} requests a turn, at most ${mostMessages} messages`,
		);
	} finally {
		await emu.stop();
	}
	const windowLimit = 2 * WINDOW + 1;
	return [
		{
			case: '9 Chat memory',
			figure: `Execute: requests per chat turn with a Memory (${TURNS} turns of one session)`,
			measured: `${executePerTurn.toFixed(2)} requests; ${continued} of ${TURNS - 1} later turns by root_id with only the new message`,
			baseline: '1 request (one run start)',
			value: executePerTurn,
			target: '≤ 1.00',
			met: executePerTurn <= 1 && continued === TURNS - 1,
		},
		{
			case: '9 Chat memory',
			figure: `Chat Completion: requests per chat turn with a Memory (${TURNS} turns, window ${WINDOW})`,
			measured: `${completionPerTurn.toFixed(2)} requests; at most ${mostMessages} messages in one`,
			baseline: `1 request; the window: ${windowLimit} messages`,
			value: completionPerTurn,
			target: `≤ 1, ≤ ${windowLimit} messages`,
			met: completionPerTurn <= 1 && mostMessages <= windowLimit,
		},
	];
}
