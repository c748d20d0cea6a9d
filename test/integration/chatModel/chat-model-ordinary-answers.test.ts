/**
 * Ordinary answers stay answers (issue 50), through the chat model against the emulator: with
 * tools bound, a model that answers without calling one (code, JSON, an n8n expression, another
 * API's calls explained, an answer cut off) gets its answer back word for word from one request,
 * whole and streamed, the code shown as it comes. The model repeats its answer when asked again
 * (the emulator's `replies`, dev/emulator/scriptedReplies.ts): where a correction is asked for (a
 * whole-answer call of no bound tool), the turn still ends with the model's answer and no error.
 * A broken call marker still gets its one correction, and the corrected call is read.
 *
 * Run: npx jest test/integration/chatModel/chat-model-ordinary-answers.test.ts --selectProjects integration
 */
import type { IDataObject } from 'n8n-workflow';

import { ORDINARY_ANSWERS, TOOL_SETS } from '../../unit/chat-model/ordinary-answers.corpus';
import { callModel, CHAT, completionPosts, emu, user } from './chat-model.shared';

const QUESTION = 'Can you show me how to do it?';

const chosen = (about: string) => {
	const found = ORDINARY_ANSWERS.find((a) => a.about === about);
	if (!found) throw new Error(`no answer "${about}" in the corpus`);
	return found;
};

/** Answers of each kind of the corpus, under 4 KB (the longest are read in the unit tests). */
const ANSWERS = [
	'python: requests.get with a timeout, fenced',
	'javascript: JSON.stringify of name and arguments from $json',
	'typescript: tools defined and tested',
	'n8n: a JSON body with expressions, bare',
	"OpenAI's tool_calls field explained in prose",
	'the Hermes format explained with an example',
	'package.json, bare',
	'a Kubernetes deployment',
	'a payload naming get_weather: a python dict posted with requests',
	'send_email defined in go with a test',
	'a markdown table of tools',
].map(chosen);

const CUT_OFF = chosen('cut off: python building a call payload, mid-dict');

const partsOf = (json: IDataObject) => (json.message as IDataObject).content as IDataObject[];
const deltasOf = (json: IDataObject) =>
	(json.chunks as IDataObject[]).filter((c) => c.type === 'text-delta').map((c) => String(c.delta));

describe('Agent Platform Chat Model: ordinary answers with tools bound', () => {
	afterEach(() => emu.configureAgent(CHAT, { replies: undefined, streamEvents: undefined }));

	it.each(ANSWERS.map((a) => [a.about, a] as const))(
		'%s: the answer word for word from one request, whole and streamed',
		async (_, { answer, tools }) => {
			emu.configureAgent(CHAT, { replies: [answer], streamEvents: 24 });
			const call = { messages: [user(QUESTION)], tools: TOOL_SETS[tools] };
			const { json, error } = await callModel([call, { ...call, stream: true }]);
			expect(error).toBeUndefined();
			expect(json[0]).toMatchObject({ finishReason: 'stop' });
			expect(partsOf(json[0])).toEqual([{ type: 'text', text: answer }]);
			const streamed = json[1].chunks as IDataObject[];
			expect(deltasOf(json[1]).join('')).toBe(answer);
			expect(streamed.filter((c) => c.type === 'tool-call-delta')).toEqual([]);
			expect(streamed.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
			// one request each: no correction
			expect(completionPosts()).toHaveLength(2);
		},
	);

	it('a code answer streamed in 24 events is shown as it comes, not at the end', async () => {
		const { answer, tools } = chosen('typescript: tools defined and tested');
		emu.configureAgent(CHAT, { replies: [answer], streamEvents: 24 });
		const { json } = await callModel([
			{ messages: [user(QUESTION)], tools: TOOL_SETS[tools], stream: true },
		]);
		const deltas = deltasOf(json[0]);
		expect(deltas.join('')).toBe(answer);
		// shown piece by piece: the last delta holds less than a quarter of the answer
		expect(deltas.length).toBeGreaterThan(10);
		expect(deltas.at(-1)!.length).toBeLessThan(answer.length / 4);
	});

	it('an answer cut off by the length limit mid-code: the answer as far as it came, one request', async () => {
		const { answer, tools } = CUT_OFF;
		emu.configureAgent(CHAT, { replies: [{ output: answer, finishReason: 'length' }] });
		const call = { messages: [user(QUESTION)], tools: TOOL_SETS[tools] };
		const { json, error } = await callModel([call, { ...call, stream: true }]);
		expect(error).toBeUndefined();
		expect(json[0]).toMatchObject({ finishReason: 'length' });
		expect(partsOf(json[0])).toEqual([{ type: 'text', text: answer }]);
		expect(deltasOf(json[1]).join('')).toBe(answer);
		expect(completionPosts()).toHaveLength(2);
	});

	it.each([false, true])(
		'a call of no bound tool, repeated when corrected (streamed: %s): one correction, then the answer and no error',
		async (stream) => {
			const reply = '{"name": "refund_order", "arguments": {"order_id": 1042}}';
			emu.configureAgent(CHAT, { replies: [reply] });
			const { json, error } = await callModel([
				{ messages: [user('Refund order 1042')], tools: TOOL_SETS.mail, stream },
			]);
			expect(error).toBeUndefined();
			const text = stream ? deltasOf(json[0]).join('') : String(partsOf(json[0])[0]?.text);
			expect(text).toBe(reply);
			expect(completionPosts().length).toBeLessThanOrEqual(2);
		},
	);

	it.each([false, true])(
		'a broken call marker (streamed: %s): its one correction, then the corrected call',
		async (stream) => {
			const corrected = JSON.stringify({
				tool_call: { name: 'get_weather', arguments: { city: 'Paris' } },
			});
			emu.configureAgent(CHAT, {
				replies: ['<tool_call>\n{"name": "get_weather", "arguments": {"city": "Par', corrected],
			});
			const { json, error } = await callModel([
				{ messages: [user('Weather in Paris?')], tools: TOOL_SETS.weather, stream },
			]);
			expect(error).toBeUndefined();
			expect(completionPosts()).toHaveLength(2);
			const call = stream
				? (json[0].chunks as IDataObject[]).find((c) => c.type === 'tool-call-delta')
				: partsOf(json[0]).find((p) => p.type === 'tool-call');
			expect(call).toMatchObject(
				stream
					? { name: 'get_weather', argumentsDelta: '{"city":"Paris"}' }
					: { toolName: 'get_weather', input: '{"city":"Paris"}' },
			);
			if (stream) expect(deltasOf(json[0])).toEqual([]);
		},
	);

	it.each([false, true])(
		'a broken call marker, repeated when corrected (streamed: %s): the turn ends with the answer, no error',
		async (stream) => {
			const reply = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Par';
			emu.configureAgent(CHAT, { replies: [reply] });
			const { json, error } = await callModel([
				{ messages: [user('Weather in Paris?')], tools: TOOL_SETS.weather, stream },
			]);
			expect(error).toBeUndefined();
			expect(completionPosts()).toHaveLength(2);
			const text = stream ? deltasOf(json[0]).join('') : String(partsOf(json[0])[0]?.text);
			expect(text).toBe(reply);
		},
	);
});
