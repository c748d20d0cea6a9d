/**
 * The Agent Platform Chat Model: requests per unit of work and its first streamed token.
 *
 * In-process through n8n-core's real execution machinery (test/infra/n8n/modelCaller.ts: the
 * model's calls as n8n's SDK adapter makes them), against the emulator in the same process:
 * - requests per model call, over 20 calls (target: 1);
 * - requests per AI Agent turn whose answer calls 1, 2 and 3 tools at once, whole (one message with
 *   every call) and streamed (one call per stream, the later ones given without a request), each
 *   model call a node run of its own as in n8n 2.x's AI Agent (target: 2);
 * - the same for 2 tools at once in every model family's format (the model's replies written by
 *   the test writers, test/unit/chat-model/modelFormats/, the emulator's `replies`), whole and
 *   streamed (target: 2);
 * - first token: from the emulator writing a stream's first event to the model's first text-delta,
 *   against a raw client of the same endpoint (node:http, splitting on blank lines) from the same
 *   event to its first parsed `data:` line, interleaved (target: at most 5 ms more).
 */
import type { PlatformEmulator } from '../../dev/emulator';
import { startEmulator } from '../../dev/emulator';
import { credentialsFor } from '../infra/n8n/credentials';
import {
	modelCaller,
	streamedMessage,
	user,
	withToolResults,
	type ModelCall,
} from '../infra/n8n/modelCaller';
import { runNode } from '../infra/n8n/runNode';
import { CALL_WRITERS } from '../unit/chat-model/modelFormats';
import type { BenchOptions, BenchRow } from './common';
import { firstDataLineAt, interleavedFirstEvents, median, ms, progress } from './common';
import { CHAT_AGENT } from '../../dev/emulator';

const PATH = `/agents/${CHAT_AGENT}/openai/chat/completions`;
const TOOLS = ['lookup', 'translate', 'define'].map((name) => ({
	name,
	description: `A Code tool: ${name}s a word`,
	schema: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] },
}));

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

/** The requests of one AI Agent turn whose model calls `count` tools at once. */
async function requestsPerTurn(
	emu: PlatformEmulator,
	count: number,
	stream: boolean,
	family?: string,
) {
	emu.clearRequests();
	const tools = TOOLS.slice(0, count);
	const question = `Use ${tools.map((t) => t.name).join(' and ')} on "otter".`;
	// a family's calls, then the final answer (the last reply stays); else the stand-in answers
	const written = family
		? CALL_WRITERS[family](tools.map((t) => ({ name: t.name, arguments: { input: 'otter' } })))
		: undefined;
	emu.configureAgent(CHAT_AGENT, {
		replies: written ? [written, 'Both tools answered.'] : undefined,
	});
	let conversation = [user(question)];
	let called = 0;
	// as n8n 2.x's AI Agent: a model call, the tools it asked for run, the next model call
	for (let turn = 0; turn <= count; turn++) {
		const [answer] = await call(emu, [{ messages: conversation, tools, stream }]);
		const message = stream
			? streamedMessage(answer.chunks as never)
			: (answer.message as unknown as (typeof conversation)[number]);
		const calls = message.content.filter((part) => part.type === 'tool-call').length;
		if (!calls) break;
		called += calls;
		conversation = withToolResults(conversation, message, (name) => `${name}: ok`);
	}
	if (called !== count)
		throw new Error(`the model (${family ?? 'stand-in'}) called ${called} tools, not ${count}`);
	return completions(emu).length;
}

const firstEventSentAt = (emu: PlatformEmulator) => completions(emu).at(-1)!.eventsSentAt![0];

export async function benchChatModel(options: BenchOptions): Promise<BenchRow[]> {
	const emu = await startEmulator({ port: 0, quiet: true, timeScale: 20 });
	let model: number[];
	let raw: number[];
	let perCall: number;
	const perTurn: Array<{ count: number; whole: number; streamed: number }> = [];
	const perFamily: Array<{ family: string; whole: number; streamed: number }> = [];
	try {
		const CALLS = 20;
		emu.clearRequests();
		await call(
			emu,
			Array.from({ length: CALLS }, (_, i) => ({ messages: [user(`Q${i}`)] })),
		);
		perCall = completions(emu).length / CALLS;

		for (const count of [1, 2, 3])
			perTurn.push({
				count,
				whole: await requestsPerTurn(emu, count, false),
				streamed: await requestsPerTurn(emu, count, true),
			});
		for (const family of Object.keys(CALL_WRITERS))
			perFamily.push({
				family,
				whole: await requestsPerTurn(emu, 2, false, family),
				streamed: await requestsPerTurn(emu, 2, true, family),
			});
		emu.configureAgent(CHAT_AGENT, { replies: undefined });
		progress(
			`chat model: per AI Agent turn with 2 tool calls, per family: ${perFamily.map((f) => `${f.family} ${f.whole}/${f.streamed}`).join(', ')}`,
		);
		progress(
			`chat model: ${perCall} requests per call; per AI Agent turn with 1, 2, 3 tool calls: ${perTurn.map((t) => `${t.whole} whole, ${t.streamed} streamed`).join('; ')}`,
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
	const worstFamily = Math.max(...perFamily.flatMap((f) => [f.whole, f.streamed]));
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
		...perTurn.map(({ count, whole, streamed }) => ({
			case: '8 Chat model',
			figure: `requests per AI Agent turn whose answer calls ${count} tool${count > 1 ? 's' : ''} at once`,
			measured: `${Math.max(whole, streamed)} requests (${whole} whole, ${streamed} streamed)`,
			baseline: '2 (the call asking for the tools, the call with their results)',
			value: Math.max(whole, streamed),
			target: '≤ 2',
			met: Math.max(whole, streamed) <= 2,
		})),
		{
			case: '8 Chat model',
			figure: `requests per AI Agent turn calling 2 tools, in each of ${perFamily.length} model families' formats`,
			measured: `${worstFamily} requests at most (whole and streamed)`,
			baseline: '2 (the call asking for the tools, the call with their results)',
			value: worstFamily,
			target: '≤ 2',
			met: worstFamily <= 2,
			note: perFamily.map((f) => `${f.family} ${f.whole}/${f.streamed}`).join(', '),
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
