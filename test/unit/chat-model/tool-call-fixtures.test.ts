/**
 * The hand-written fixtures (fixtures/): each public parser test's case read as its expected
 * result says, the prompted-JSON deviations and ordinary answers as written down, whole and by
 * the stream's property (streamProperty.ts). Expected values come from outside: no writer of ours.
 */
import { readToolsAnswer } from '../../../nodes/AgentPlatform/helpers/chatModel/toolCallReader';
import type { Fixture } from './fixtures/fixture';
import { LLAMA_CPP } from './fixtures/llamacpp-more';
import { PROMPTED } from './fixtures/prompted';
import { SGLANG } from './fixtures/sglang';
import { SGLANG_JSON } from './fixtures/sglang-json';
import { SGLANG_TOKENS } from './fixtures/sglang-tokens';
import { LANGCHAIN_AGENTS, VLLM } from './fixtures/vllm-langchain';
import { VLLM_COMMON } from './fixtures/vllm-common';
import { VLLM_MORE } from './fixtures/vllm-more';
import { streamProblems } from './streamProperty';

const GROUPS: Record<string, Fixture[]> = {
	SGLang: [...SGLANG, ...SGLANG_TOKENS, ...SGLANG_JSON],
	vLLM: [...VLLM, ...VLLM_MORE, ...VLLM_COMMON],
	LangChain: LANGCHAIN_AGENTS,
	'llama.cpp and cut-off or broken replies': LLAMA_CPP,
	'prompted JSON and ordinary answers': PROMPTED,
};
const ALL = Object.values(GROUPS).flat();

function expectRead(fixture: Fixture) {
	const read = readToolsAnswer(fixture.reply, fixture.tools);
	if (fixture.problem) {
		expect(read.kind).toBe('malformed');
		expect(read.kind === 'malformed' && read.problem).toMatch(fixture.problem);
	} else if (fixture.calls)
		expect(read).toMatchObject({ kind: 'calls', prose: fixture.prose ?? '', calls: fixture.calls });
	else expect(read).toMatchObject({ kind: 'final', text: fixture.final ?? fixture.reply });
	if (fixture.reasoning) expect(read.reasoning).toContain(fixture.reasoning);
}

describe('hand-written fixtures', () => {
	it.each(ALL.map((f) => [f.source, f] as const))('%s: read whole', (_, fixture) => {
		expectRead(fixture);
	});

	it.each(Object.entries(GROUPS))(
		'%s, streamed a character at a time and in random chunks: the chat shows what the whole reading says',
		(_, fixtures) => {
			const cases = fixtures.map((f) => ({ name: f.source, reply: f.reply, tools: f.tools }));
			expect(streamProblems(cases)).toEqual([]);
		},
	);
});
