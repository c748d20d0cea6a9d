/**
 * The protocols' words (helpers/output/protocolWords.ts): what the node writes, read back by the
 * readers the emulator's scripted model uses (dev/emulator/protocolReaders.ts), so that the two
 * cannot drift apart.
 */
import { isCorrection, toolLinesIn, toolResultsIn } from '../../../dev/emulator/protocolReaders';
import { toolResultText } from '../../../nodes/AgentPlatform/helpers/output/protocolWords';
import {
	toolsCorrection,
	toolsInstruction,
} from '../../../nodes/AgentPlatform/helpers/chatModel/toolsProtocol';
import { correctionMessage } from '../../../nodes/AgentPlatform/helpers/output/structuredOutput';

describe('protocol words', () => {
	it('reads back the tools the instruction lists, with their schemas as written', () => {
		const instruction = toolsInstruction([
			{
				name: 'get_weather',
				description: 'The weather: in a city, today',
				schema: { type: 'object', properties: { city: { type: 'string' } } },
			},
			{ name: 'clock', description: '', schema: { type: 'object', properties: {} } },
		]);
		expect(toolLinesIn(instruction)).toEqual([
			{
				name: 'get_weather',
				schema: '{"type":"object","properties":{"city":{"type":"string"}}}',
			},
			{ name: 'clock', schema: '{"type":"object","properties":{}}' },
		]);
	});

	it('reads back every result of one message, named or not, errors too', () => {
		const message = [
			toolResultText('search', 'Paris, 21 °C\n'),
			toolResultText(undefined, '{"failed":true}', true),
			toolResultText('calculator', '42'),
		].join('\n\n');
		expect(toolResultsIn(message)).toEqual([
			{ tool: 'search', result: 'Paris, 21 °C' },
			{ tool: undefined, result: '{"failed":true}' },
			{ tool: 'calculator', result: '42' },
		]);
		expect(toolResultsIn('What is the weather in Paris?')).toBeUndefined();
		expect(toolResultsIn('The result of the tool was odd')).toBeUndefined();
	});

	it('knows both protocols’ corrections, and nothing else, as corrections', () => {
		const tools = [{ name: 'clock', description: '', schema: { type: 'object' as const } }];
		expect(isCorrection(toolsCorrection('there is no tool "time"', tools))).toBe(true);
		expect(isCorrection(correctionMessage({ type: 'object' }, ['$: expected an object']))).toBe(
			true,
		);
		expect(isCorrection('Your previous answer was fine, thanks')).toBe(false);
	});
});
