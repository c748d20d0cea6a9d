/**
 * A family owns its whole format (vLLM's tool and reasoning parsers, SGLang's detectors: one
 * module per format; the core never names a token): no marker, reasoning tag, channel token or
 * call fence of any family module stands in the code of the reader's core (toolCalls/*.ts, outside
 * families/), nor the words that named families' formats there before (ReAct's `Observation`,
 * Phi-4's `functools`, the XML agent's `final_answer`, Gemini's `default_api`, Kimi's `◁` and
 * DeepSeek's full-width bar `｜`). A planted marker in a core file's code is found.
 */
import fs from 'node:fs';
import path from 'node:path';
import { FAMILIES } from '../../../nodes/AgentPlatform/helpers/chatModel/toolCalls/families';

const CORE = path.resolve(__dirname, '../../../nodes/AgentPlatform/helpers/chatModel/toolCalls');

/** The words that named families' formats in the core before each family owned its own. */
const FORMER_WORDS = ['Observation', 'functools', 'final_answer', 'default_api', '◁', '｜'];

/** Every family's markers, reasoning tags, channel tokens and call fences. */
const familyWords = [
	...new Set(
		FAMILIES.flatMap((family) => {
			const channels = family.reasoning?.channels;
			return [
				...family.markers,
				...(family.reasoning?.tags ?? []).flat(),
				...(channels
					? [...channels.reasoning.flat(), ...channels.wrappers, ...channels.tokens]
					: []),
				...(family.callFences ?? []),
			];
		}),
	),
];

/** A file's code without its comments. */
const codeOf = (source: string) =>
	source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

/** The family words a source's code names. */
const named = (source: string) =>
	[...familyWords, ...FORMER_WORDS].filter((word) => codeOf(source).includes(word));

describe("the reader's core names no family's format", () => {
	const coreFiles = fs.readdirSync(CORE).filter((name) => name.endsWith('.ts'));

	it("the words looked for are the families' own (each module gives some)", () => {
		expect(familyWords).toEqual(expect.arrayContaining(['<tool_call>', '[TOOL_CALLS]', 'Action:']));
		expect(coreFiles).toEqual(
			expect.arrayContaining(['index.ts', 'streamedText.ts', 'reasoning.ts']),
		);
	});

	it.each(fs.readdirSync(CORE).filter((name) => name.endsWith('.ts')))('%s', (file) => {
		expect(named(fs.readFileSync(path.join(CORE, file), 'utf8'))).toEqual([]);
	});

	it('a marker planted in a core file is found', () => {
		const source = fs.readFileSync(path.join(CORE, 'streamedText.ts'), 'utf8');
		const planted = source.replace(
			'const LOOKED_BACK',
			"const REACT = 'Action:';\nconst LOOKED_BACK",
		);
		expect(named(planted)).toEqual(['Action:']);
	});
});
