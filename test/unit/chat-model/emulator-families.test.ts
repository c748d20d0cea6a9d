/**
 * The emulator's scripted model in every model family (dev/emulator/modelFamilies.ts), read by
 * the chat model's reader: the calls it writes are the calls meant, whole and streamed (nothing
 * of them shown), and its final answers, reasoning first or not, are the answer alone.
 */
import { MODEL_FAMILIES } from '../../../dev/emulator/modelFamilies';
import { resultSentence, STAND_IN_NOTE } from '../../../dev/emulator/scriptedProse';
import { scriptedModelAnswer } from '../../../dev/emulator/toolsProtocolModel';
import { toolResultText } from '../../../nodes/AgentPlatform/helpers/output/protocolWords';
import {
	readToolsAnswer,
	StreamedText,
} from '../../../nodes/AgentPlatform/helpers/chatModel/toolCallReader';
import { toolsInstruction } from '../../../nodes/AgentPlatform/helpers/chatModel/toolsProtocol';
import { ADD, LOOKUP, TOOLS } from './toolCallCorpus';

const system = { role: 'system', content: toolsInstruction(TOOLS) };
const FAMILIES = MODEL_FAMILIES.flatMap((family) => [family, `${family}+think`]);

function reply(family: string, ...users: string[]): string {
	const messages = [system, ...users.map((content) => ({ role: 'user', content }))];
	return scriptedModelAnswer(messages as never, { modelFamily: family })!.output;
}

describe("the emulator's scripted model in every family", () => {
	it.each(FAMILIES.map((f) => [f]))('%s: two calls read, nothing of them shown', (family) => {
		const written = reply(family, 'Use add and lookup: 2 and 3, "otter"');
		expect(readToolsAnswer(written, TOOLS)).toMatchObject({
			kind: 'calls',
			prose: '',
			calls: [{ name: 'add', arguments: ADD.arguments }, LOOKUP],
		});
		for (let cut = 1; cut < written.length; cut++) {
			const streamed = new StreamedText();
			expect(streamed.push(written.slice(0, cut)) + streamed.push(written.slice(cut))).toBe('');
		}
	});

	it.each(FAMILIES.map((f) => [f]))('%s: the final answer is the answer alone', (family) => {
		const written = reply(family, 'Add 2 and 3', toolResultText('add', '5'));
		const answer = readToolsAnswer(written, TOOLS);
		expect(answer).toMatchObject({ kind: 'final' });
		expect(answer.kind === 'final' && answer.text.replace(/^Final Answer: /, '')).toBe(
			`${resultSentence('add', '5')}\n\n${STAND_IN_NOTE}`,
		);
	});

	it.each(MODEL_FAMILIES.map((f) => [`${f}+closing-think`]))(
		'%s: reasoning with only its closing tag, then two calls: read, nothing shown from the start',
		(family) => {
			const written = reply(family, 'Use add and lookup: 2 and 3, "otter"');
			expect(written).not.toContain('<think>');
			expect(readToolsAnswer(written, TOOLS)).toMatchObject({
				kind: 'calls',
				calls: [{ name: 'add', arguments: ADD.arguments }, LOOKUP],
				reasoning: expect.stringContaining('The user asked something'),
			});
			for (let cut = 1; cut < written.length; cut += 7) {
				const streamed = new StreamedText(true, '</think>');
				expect(streamed.push(written.slice(0, cut)) + streamed.push(written.slice(cut))).toBe('');
			}
		},
	);

	it('a question can ask for a family: [family: pythonic]', () => {
		const written = reply('hermes', '[family: pythonic] Add 2 and 3');
		expect(written).toBe('[add(a=2, b=3)]');
	});
});
