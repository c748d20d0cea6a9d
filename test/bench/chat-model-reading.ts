/**
 * The chat model's reading of an answer with tools bound (helpers/chatModel/toolCallReader.ts):
 * time per kilobyte from 1 KB to 1 MB, read whole (`readToolsAnswer`) and streamed (20-character
 * pieces through `StreamedText` as a model streams, then the answer read whole, as the chat model
 * does), for a code answer in a fence and for an answer the token limit cut off mid-JSON. The
 * target: flat, the largest time per kilobyte at most twice the smallest (linear reading). And
 * requests per AI Agent turn whose model answers without a tool (target 1) or calls one (2),
 * whole and streamed, against the emulator in the same process (its `replies`).
 *
 *   npm run bench -- --only chatreading
 */
import { startEmulator } from '../../dev/emulator';
import {
	readToolsAnswer,
	StreamedText,
	type BoundTool,
} from '../../nodes/AgentPlatform/helpers/chatModel/toolCallReader';
import { credentialsFor } from '../infra/n8n/credentials';
import { modelCaller, user } from '../infra/n8n/modelCaller';
import { runNode } from '../infra/n8n/runNode';
import type { BenchOptions, BenchRow } from './common';
import { median, progress } from './common';
import { CHAT_AGENT } from '../../dev/emulator';

const SIZES_KB = [1, 4, 16, 64, 256, 1024];
/** A size whose one reading takes longer is the last measured (a super-linear reader). */
const BUDGET_MS = 8_000;

const text = { type: 'string' };
const TOOLS: BoundTool[] = [
	{
		name: 'get_weather',
		description: 'Gets the weather of a city',
		schema: { type: 'object', properties: { city: text }, required: ['city'] },
	},
	{
		name: 'search_docs',
		description: 'Searches the docs',
		schema: { type: 'object', properties: { query: text }, required: ['query'] },
	},
];

/** A Python module in a fence, of `size` characters: handlers named like the tools. */
function codeAnswer(size: number): string {
	const head = 'Here is the module:\n\n```python\nimport json\n';
	const tail = '\n```\n\nRun it with `python tools.py`.';
	let body = '';
	for (let i = 0; head.length + body.length + tail.length < size; i++)
		body += `\ndef get_weather_${i}(city):\n    payload = {"name": "get_weather", "arguments": {"city": city}}\n    return json.dumps(payload)\n`;
	return head + body.slice(0, Math.max(0, size - head.length - tail.length)) + tail;
}

/**
 * A JSON export of records with `name` and `arguments` keys, pretty-printed as a model writes
 * it, cut off by the token limit at `size` characters.
 */
function cutOffJson(size: number): string {
	let answer = '{\n  "users": [\n';
	for (let i = 0; answer.length < size; i++)
		answer += `    {\n      "name": "User ${i}",\n      "arguments": {"role": "member", "id": ${i}},\n      "address": {"city": "Paris", "zip": "7500${i % 10}"}\n    },\n`;
	return answer.slice(0, size);
}

function readStreamed(answer: string): void {
	const streamed = new StreamedText(TOOLS);
	for (let at = 0; at < answer.length; at += 20) streamed.push(answer.slice(at, at + 20));
	readToolsAnswer(answer, TOOLS);
}

/** Milliseconds per reading: repeated until 200 ms have passed (once for a slow one), the median of `runs` such rounds. */
function timePerReading(read: () => void, runs: number): number {
	const rounds: number[] = [];
	for (let run = 0; run < runs; run++) {
		const started = performance.now();
		let count = 0;
		do {
			read();
			count++;
		} while (performance.now() - started < 200 && count < 10_000);
		rounds.push((performance.now() - started) / count);
	}
	return median(rounds);
}

interface Series {
	answer: string;
	way: string;
	/** ms per KB by size in KB; the sizes after a super-linear one are missing. */
	perKb: Map<number, number>;
	/** Why the larger sizes were not read. */
	stopped?: string;
}

/**
 * The time per KB of each size: first one reading per size, smallest first, stopping where the
 * reader turns super-linear (a reading of over a second, four times the smallest time per KB: a
 * larger answer could take minutes, or the process's memory); then `runs` rounds over the
 * sizes in turn, so that the machine's load weighs on every size alike; the medians.
 */
function measure(answer: string, make: (size: number) => string, way: string, runs: number) {
	const series: Series = { answer, way, perKb: new Map() };
	const readerOf = (reply: string) =>
		way === 'whole' ? () => readToolsAnswer(reply, TOOLS) : () => readStreamed(reply);
	// warm: the reader's first readings are compiled as they run
	timePerReading(readerOf(make(4 * 1024)), 1);
	const readers = new Map<number, () => void>();
	const once = new Map<number, number>();
	for (const kb of SIZES_KB) {
		const read = readerOf(make(kb * 1024));
		const started = performance.now();
		read();
		const ms = performance.now() - started;
		readers.set(kb, read);
		once.set(kb, ms / kb);
		const least = Math.min(...once.values());
		if (ms > BUDGET_MS || (ms > 1_000 && ms / kb > 4 * least)) {
			series.stopped =
				ms > BUDGET_MS
					? `one reading took over ${BUDGET_MS / 1000} s`
					: `${(ms / kb / least).toFixed(0)}× the smallest time per KB`;
			break;
		}
	}
	const rounds = new Map<number, number[]>([...readers.keys()].map((kb) => [kb, []]));
	for (let run = 0; run < runs; run++)
		for (const [kb, read] of readers) rounds.get(kb)!.push(timePerReading(read, 1) / kb);
	for (const [kb, perKb] of rounds) {
		series.perKb.set(kb, median(perKb));
		progress(`chat reading: ${answer}, ${way}, ${kb} KB: ${median(perKb).toFixed(4)} ms/KB`);
	}
	return series;
}

/** The requests of one model call (a node run) answered with `reply`, and its error if any. */
async function requestsOfCall(reply: string, stream: boolean) {
	const emu = await startEmulator({ port: 0, quiet: true, timeScale: 100 });
	try {
		emu.configureAgent(CHAT_AGENT, { replies: [reply], executionSeconds: 2 });
		const { error } = await runNode({
			parameters: {},
			credentials: credentialsFor(emu),
			nodeType: modelCaller(
				[{ messages: [user('Show me the code')], tools: TOOLS, stream }],
				CHAT_AGENT,
			),
		});
		const requests = emu.requests.filter((r) => r.path.endsWith('/openai/chat/completions'));
		return { requests: requests.length, failed: error ? ' (the call failed)' : '' };
	} finally {
		await emu.stop();
	}
}

export async function benchChatReading(options: BenchOptions): Promise<BenchRow[]> {
	const runs = options.quick ? 3 : Math.max(3, options.runs);
	const all: Series[] = [];
	for (const [answer, make] of [
		['a code answer in a fence', codeAnswer],
		['an answer cut off mid-JSON', cutOffJson],
	] as const)
		for (const way of ['whole', 'streamed (20-character pieces)'])
			all.push(measure(answer, make, way, runs));

	const rows: BenchRow[] = all.map(({ answer, way, perKb, stopped }) => {
		const measured = [...perKb.values()];
		const ratio = Math.max(...measured) / Math.min(...measured);
		const complete = perKb.size === SIZES_KB.length;
		return {
			case: '8 Chat model reading',
			figure: `reading time per KB, ${answer}, ${way}, 1 KB to 1 MB`,
			measured: [...perKb].map(([kb, ms]) => `${kb} KB ${ms.toFixed(3)}`).join(', ') + ' ms/KB',
			baseline: `the smallest: ${Math.min(...measured).toFixed(3)} ms/KB`,
			value: ratio,
			target: '≤ 2× (flat)',
			met: complete && ratio <= 2,
			...(complete
				? {}
				: {
						note: `not read beyond ${[...perKb.keys()].pop()} KB: ${stopped}`,
					}),
		};
	});

	const ordinary = codeAnswer(3 * 1024);
	const call = JSON.stringify({ tool_call: { name: 'get_weather', arguments: { city: 'Paris' } } });
	for (const [figure, reply] of [
		['a 3 KB code answer, tools bound', ordinary],
		['a call of a bound tool', call],
	] as const) {
		const whole = await requestsOfCall(reply, false);
		const streamed = await requestsOfCall(reply, true);
		const most = Math.max(whole.requests, streamed.requests);
		const failed = whole.failed || streamed.failed;
		progress(`chat reading: requests of a model call answered with ${figure}: ${most}${failed}`);
		rows.push({
			case: '8 Chat model reading',
			figure: `requests of a model call answered with ${figure}`,
			measured: `${most} (${whole.requests} whole${whole.failed}, ${streamed.requests} streamed${streamed.failed})`,
			baseline: '1 (no correction)',
			value: most,
			target: '≤ 1, no failure',
			met: most <= 1 && !failed,
		});
	}
	return rows;
}
