/**
 * The emulator's stand-in for a model (dev/emulator/scriptedProse.ts, toolsProtocolModel.ts;
 * docs/emulator.md) through the tools protocol, as the Agent Platform Chat Model sends it: the
 * questions the example "chat with a platform model in the AI Agent" suggests get the turns
 * written for them, anything else the stand-in's plain answer; a bound tool is called only when
 * the question names it or words of its description. Expected answers are written out by hand.
 */
import { scriptedModelAnswer } from '../../../dev/emulator/toolsProtocolModel';
import {
	toolsInstruction,
	type BoundTool,
} from '../../../nodes/AgentPlatform/helpers/chatModel/toolsProtocol';
import { toolResultText } from '../../../nodes/AgentPlatform/helpers/output/protocolWords';

/** The example's Code tool, as n8n binds it (examples/chat-with-a-platform-model-in-the-ai-agent.json). */
const GLOSSARY: BoundTool = {
	name: 'Glossary',
	description: "Looks a word up in the team's glossary and returns its meaning",
	schema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
};
const WEATHER: BoundTool = {
	name: 'get_weather',
	description: 'Current weather for a city',
	schema: {
		type: 'object',
		properties: { city: { type: 'string' }, days: { type: 'integer' } },
		required: ['city'],
	},
};
const NOTE =
	"(The emulator's stand-in answered, with a turn written for the example: not a real model.)";
const PLAIN =
	"I am the emulator's stand-in for a model, not a real one, so I cannot answer that. I answer the example workflows' suggested questions; set EMULATOR_MODEL_URL to chat with a model of your own.";

type Turn = { role: 'user' | 'assistant'; content: string };
const user = (content: string): Turn => ({ role: 'user', content });
const assistant = (content: string): Turn => ({ role: 'assistant', content });

function reply(turns: Turn[], tools = [GLOSSARY]): string {
	const system = { role: 'system', content: toolsInstruction(tools) };
	return scriptedModelAnswer([system, ...turns] as never)!.output;
}

const call = (name: string, args: object) =>
	JSON.stringify({ tool_call: { name, arguments: args } });

describe("the stand-in answers the example's suggested questions with turns written for them", () => {
	it('What does otter mean? → the glossary is asked for the word, then its meaning is said', () => {
		const asked = user('What does otter mean?');
		const called = reply([asked]);
		expect(called).toBe(call('Glossary', { query: 'otter' }));
		const result = user(toolResultText('Glossary', 'otter: a river animal that eats fish'));
		expect(reply([asked, assistant(called), result])).toBe(
			`According to Glossary, otter means a river animal that eats fish.\n\n${NOTE}`,
		);
	});

	it('a word the glossary does not hold is said so', () => {
		const asked = user('What does kelp mean?');
		const result = user(toolResultText('Glossary', 'kelp: not in the glossary'));
		expect(reply([asked, assistant(call('Glossary', { query: 'kelp' })), result])).toBe(
			`According to Glossary, kelp is not in the glossary.\n\n${NOTE}`,
		);
	});

	it('Write a Python function that reverses a string → the function, no tool', () => {
		expect(reply([user('Write a Python function that reverses a string')])).toBe(
			'Here is a Python function that reverses a string:\n\n' +
				'```python\ndef reverse_string(text):\n    return text[::-1]\n```' +
				`\n\n${NOTE}`,
		);
	});

	it('Which word did I ask you about first? → from the history it was sent, no tool', () => {
		const history = [
			user('What does otter mean?'),
			assistant('According to Glossary, otter means a river animal that eats fish.'),
			user('What does sprint mean?'),
			assistant('According to Glossary, sprint means two weeks of planned work.'),
			user('Which word did I ask you about first?'),
		];
		expect(reply(history)).toBe('Your first question was about otter ("What does otter mean?").');
		expect(reply([user('Which word did I ask you about first?')])).toBe(
			`This is the first message of our conversation: you have asked me about no word yet.\n\n${NOTE}`,
		);
	});
});

describe('anything else: the plain answer, a tool only when the question names it or its words', () => {
	it.each([
		'What is the capital of Peru?',
		'Hello!',
		'Write a JavaScript function that sorts an array',
		'Summarise our conversation so far.',
	])('%s → the plain answer, no call', (question) => {
		expect(reply([user(question)], [GLOSSARY, WEATHER])).toBe(PLAIN);
	});

	it('a tool named in the question is called: quoted words and numbers are its arguments', () => {
		expect(reply([user('Use get_weather for "Lisbon", 3 days')], [GLOSSARY, WEATHER])).toBe(
			call('get_weather', { city: 'Lisbon', days: 3 }),
		);
	});

	it("a question sharing a word of a tool's description calls it with the question", () => {
		expect(reply([user('Is it raining in Oslo? Check the weather.')], [GLOSSARY, WEATHER])).toBe(
			call('get_weather', { city: 'Is it raining in Oslo? Check the weather.' }),
		);
	});

	it("a tool's JSON result is said in words, an empty one plainly", () => {
		const asked = user('Check the weather');
		const calledWeather = assistant(call('get_weather', { city: 'Check the weather' }));
		const json = user(toolResultText('get_weather', '[{"response":"Sunny, 21 °C"}]'));
		expect(reply([asked, calledWeather, json], [WEATHER])).toBe(
			`The get_weather tool returned: Sunny, 21 °C.\n\n${NOTE}`,
		);
		const empty = user(toolResultText('get_weather', ''));
		expect(reply([asked, calledWeather, empty], [WEATHER])).toBe(
			`The get_weather tool returned nothing.\n\n${NOTE}`,
		);
	});
});
