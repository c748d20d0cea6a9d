/**
 * The emulator's exact replies (`replies` in an agent's configuration, dev/emulator/scriptedReplies.ts):
 * each chat completion takes the next one, whole or streamed, before the scripted model's answer
 * even with the tools protocol; the last one stays (a model asked again repeats it); a reply cut
 * off by the length limit finishes with `length`.
 */
import { toolsInstruction } from '../../../nodes/AgentPlatform/helpers/chatModel/toolsProtocol';
import { call, emu } from './shared';
import { CHAT_AGENT } from '../../../dev/emulator';

const PATH = `/agents/${CHAT_AGENT}/openai/chat/completions`;
const TOOL = { name: 'lookup', description: 'Looks a word up', schema: { type: 'object' } };
const MESSAGES = [
	{ role: 'system', content: toolsInstruction([TOOL]) },
	{ role: 'user', content: 'Show me the code' },
];

async function completion(stream = false, messages = MESSAGES) {
	const { status, json, text } = await call(PATH, { body: { messages, stream } });
	expect(status).toBe(200);
	if (!stream)
		return { content: json.choices[0].message.content, finish: json.choices[0].finish_reason };
	const chunks = text
		.split('\n')
		.filter((line) => line.startsWith('data: {'))
		.map((line) => JSON.parse(line.slice(6)).choices[0]);
	return {
		content: chunks.map((c) => c.delta.content ?? '').join(''),
		finish: chunks.at(-1).finish_reason,
	};
}

describe('emulator: exact replies of the chat completions', () => {
	afterEach(() => emu.configureAgent(CHAT_AGENT, { replies: undefined }));

	it('each request takes the next reply, the last one stays, whole and streamed', async () => {
		emu.configureAgent(CHAT_AGENT, { replies: ['```python\nprint(1)\n```', 'Second.'] });
		expect(await completion()).toEqual({ content: '```python\nprint(1)\n```', finish: 'stop' });
		expect(await completion(true)).toEqual({ content: 'Second.', finish: 'stop' });
		expect(await completion()).toEqual({ content: 'Second.', finish: 'stop' });
	});

	it('a reply cut off by the length limit finishes with length', async () => {
		emu.configureAgent(CHAT_AGENT, {
			replies: [{ output: '{"name": "Us', finishReason: 'length' }],
		});
		expect(await completion()).toEqual({ content: '{"name": "Us', finish: 'length' });
		expect(await completion(true)).toEqual({ content: '{"name": "Us', finish: 'length' });
	});

	it('without replies, the scripted model answers again', async () => {
		// a question the lookup tool fits: the scripted model calls it
		const asked = [MESSAGES[0], { role: 'user', content: 'Look up the word otter' }];
		expect(JSON.parse((await completion(false, asked)).content)).toMatchObject({
			tool_call: { name: 'lookup' },
		});
	});
});
