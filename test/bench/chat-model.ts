/**
 * The Agent Platform Chat Model: requests per unit of work and its first streamed token.
 *
 * In-process through n8n-core's real execution machinery (test/infra/n8n/modelCaller.ts: the
 * model's calls as n8n's SDK adapter makes them), against the emulator in the same process:
 * - requests per model call, over 20 calls (target: 1);
 * - requests per AI Agent turn that calls one tool: the call that asks for the tool, then the call
 *   with its result (target: 2);
 * - first token: from the emulator writing a stream's first event to the model's first text-delta,
 *   against a raw client of the same endpoint (node:http, splitting on blank lines) from the same
 *   event to its first parsed `data:` line, interleaved (target: at most 5 ms more).
 */
import type { PlatformEmulator } from '../../dev/emulator';
import { startEmulator } from '../../dev/emulator';
import { credentialsFor } from '../infra/n8n/credentials';
import { modelCaller, user, type ModelCall } from '../infra/n8n/modelCaller';
import { runNode } from '../infra/n8n/runNode';
import type { BenchOptions, BenchRow } from './common';
import { firstDataLineAt, interleavedFirstEvents, median, ms, progress } from './common';

const CHAT_AGENT = 1;
const PATH = `/agents/${CHAT_AGENT}/openai/chat/completions`;
const TOOL = {
	name: 'lookup',
	description: 'Looks a word up',
	schema: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] },
};

const now = () => performance.timeOrigin + performance.now();
const completions = (emu: PlatformEmulator) =>
	emu.requests.filter((r) => r.method === 'POST' && r.path === PATH);

async function call(emu: PlatformEmulator, calls: ModelCall[]) {
	const { error, outputs } = await runNode({
		parameters: {},
		credentials: credentialsFor(emu),
		nodeType: modelCaller(calls, CHAT_AGENT),
	});
	if (error) throw error;
	return outputs[0].map((item) => item.json);
}

/** The raw client: the same streamed request; resolves when its first data line is complete. */
function rawFirstEvent(emu: PlatformEmulator): Promise<number> {
	return firstDataLineAt(emu, PATH, {
		messages: [{ role: 'user', content: 'bench' }],
		stream: true,
	});
}

async function modelFirstDelta(emu: PlatformEmulator): Promise<number> {
	let first: number | undefined;
	await call(emu, [
		{
			messages: [user('bench')],
			stream: true,
			onChunk: (chunk) => {
				if (chunk.type === 'text-delta' && first === undefined) first = now();
			},
		},
	]);
	if (first === undefined) throw new Error('the model streamed nothing');
	return first;
}

const firstEventSentAt = (emu: PlatformEmulator) => completions(emu).at(-1)!.eventsSentAt![0];

export async function benchChatModel(options: BenchOptions): Promise<BenchRow[]> {
	const emu = await startEmulator({ port: 0, quiet: true, timeScale: 20 });
	let model: number[];
	let raw: number[];
	let perCall: number;
	let perTurn: number;
	try {
		const CALLS = 20;
		emu.clearRequests();
		await call(
			emu,
			Array.from({ length: CALLS }, (_, i) => ({ messages: [user(`Q${i}`)] })),
		);
		perCall = completions(emu).length / CALLS;

		emu.clearRequests();
		const [asked] = await call(emu, [{ messages: [user('otter')], tools: [TOOL] }]);
		const message = asked.message as { content: Array<{ toolCallId: string }> };
		await call(emu, [
			{
				messages: [
					user('otter'),
					message as never,
					{
						role: 'tool',
						content: [
							{ type: 'tool-result', toolCallId: message.content[0].toolCallId, result: 'ok' },
						],
					},
				],
				tools: [TOOL],
			},
		]);
		perTurn = completions(emu).length;
		progress(
			`chat model: ${perCall} requests per call, ${perTurn} per AI Agent turn with one tool`,
		);

		// a short run whose first event comes 50 ms after it starts
		emu.configureAgent(CHAT_AGENT, { executionSeconds: 5, streamEvents: 4 });
		({ node: model, raw } = await interleavedFirstEvents(
			Math.max(options.runs, 5) * 2,
			() => modelFirstDelta(emu),
			() => rawFirstEvent(emu),
			() => firstEventSentAt(emu),
		));
		progress(
			`chat model: first event → first text-delta ${model.map((v) => v.toFixed(1)).join(', ')} ms; → raw client ${raw.map((v) => v.toFixed(1)).join(', ')} ms`,
		);
	} finally {
		await emu.stop();
	}
	const extra = median(model) - median(raw);
	return [
		{
			case: '8 Chat model',
			figure: 'requests per model call (20 calls)',
			measured: `${perCall.toFixed(2)} requests`,
			baseline: '1 request (one chat completion)',
			value: perCall,
			target: '≤ 1',
			met: perCall <= 1,
		},
		{
			case: '8 Chat model',
			figure: 'requests per AI Agent turn that calls one tool',
			measured: `${perTurn} requests`,
			baseline: '2 (the call asking for the tool, the call with its result)',
			value: perTurn,
			target: '≤ 2',
			met: perTurn <= 2,
		},
		{
			case: '8 Chat model',
			figure: "stream's first event → the model's first text-delta, minus a raw client's delay",
			measured: ms(median(model)),
			baseline: ms(median(raw)),
			value: extra,
			target: '≤ 5 ms more',
			met: extra <= 5,
			note: `difference of medians over ${model.length} runs each, interleaved (ms)`,
		},
	];
}
