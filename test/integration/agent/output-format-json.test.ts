/**
 * Output format JSON on Agent → Execute and Agent → Chat Completion, against the emulator's chat
 * agent scripted to answer with given (or broken) JSON: extraction (fenced or bare), validation
 * against a schema generated from an example or given as JSON Schema, the harmless coercions
 * listed, corrections in the same session (root_id), credits of all attempts added up, and the
 * error that lists each problem by its path.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { PlatformEmulator } from '../../../dev/emulator';
import { byId, credentialsFor } from '../../infra/n8n/credentials';
import { runNode } from '../../infra/n8n/runNode';
import { useEmulator } from '../../infra/useEmulator';
import { CHAT_AGENT as CHAT } from '../../../dev/emulator';

let emu: PlatformEmulator;

useEmulator({ timeScale: 100, executionSeconds: 1, quiet: true }, (started) => (emu = started));

const chatSettings = () => emu.firstOptions(CHAT);

const EXAMPLE = '{"name": "Otter", "age": 8, "tags": ["river"], "wild": true}';

function execute(extra: IDataObject = {}): INodeParameters {
	return {
		resource: 'agent',
		operation: 'execute',
		agentId: byId(CHAT),
		message: 'Describe an otter',
		...chatSettings(),
		outputFormat: 'json',
		jsonSchemaExample: EXAMPLE,
		...extra,
	} as INodeParameters;
}

const executeBodies = () =>
	emu.requests
		.filter((r) => r.method === 'POST' && r.path.endsWith('/execute'))
		.map((r) => r.body as IDataObject);

describe('Agent → Execute, output format JSON', () => {
	it('a fenced answer is extracted and validated; the instruction went with the message', async () => {
		emu.configureAgent(CHAT, {
			outputs: [
				'Here you are:\n```json\n{"name": "Otto", "age": 4, "tags": [], "wild": false}\n```',
			],
		});
		const { outputs, error } = await runNode({
			parameters: execute(),
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		const item = outputs[0][0].json;
		expect(item.output_json).toEqual({ name: 'Otto', age: 4, tags: [], wild: false });
		expect(item).toMatchObject({ attempts: 1, coercions: [], status: 'succeeded' });
		expect(String(item.output)).toContain('```json');
		const [body] = executeBodies();
		const content = (body.messages as IDataObject[])[0].content as string;
		expect(content).toMatch(/^Describe an otter\n\nAnswer with JSON only/);
		expect(content).toContain('"required":["name","age","tags","wild"]');
		expect((body.answers as IDataObject).messages).toEqual(body.messages);
	});

	it('harmless cases are coerced and listed', async () => {
		emu.configureAgent(CHAT, {
			outputs: ['{"name": 7, "age": "8", "tags": ["a"], "wild": "true"}'],
		});
		const { outputs, error } = await runNode({
			parameters: execute(),
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		expect(outputs[0][0].json.output_json).toEqual({ name: '7', age: 8, tags: ['a'], wild: true });
		expect(outputs[0][0].json.coercions).toEqual([
			'name: 7 → "7"',
			'age: "8" → 8',
			'wild: "true" → true',
		]);
	});

	it('broken once, corrected in the same session, credits added up', async () => {
		emu.configureAgent(CHAT, {
			outputs: [
				'{"name": "Otter", "age": "old"',
				'{"name": "Otter", "age": 8, "tags": ["sea"], "wild": true}',
			],
		});
		const { outputs, error } = await runNode({
			parameters: execute(),
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		const item = outputs[0][0].json;
		expect(item.output_json).toEqual({ name: 'Otter', age: 8, tags: ['sea'], wild: true });
		expect(item.attempts).toBe(2);
		const [first, second] = executeBodies();
		expect(second.root_id).toBe(item.root_id);
		expect(first.root_id).toBeUndefined();
		expect(second.messages).toEqual([
			{ role: 'user', content: expect.stringContaining('Your previous answer cannot be used') },
		]);
		expect((second.messages as IDataObject[])[0].content).toContain('The answer is not valid JSON');
		const runs = [...emu.state.runs.values()].slice(-2);
		expect(runs.map((r) => r.root_id)).toEqual([runs[0].id, runs[0].id]);
		expect(item.credits).toBeCloseTo(Number(runs[0].credits) + Number(runs[1].credits), 6);
	});

	it('still invalid after the attempts: the item fails listing each problem by its path', async () => {
		emu.configureAgent(CHAT, {
			outputs: ['{"name": "Otter", "age": "old", "tags": ["a", {"b": 3}]}'],
		});
		const { error } = await runNode({
			parameters: execute({ jsonCorrectionAttempts: 1 }),
			credentials: credentialsFor(emu),
		});
		expect(error?.message).toBe(
			"The agent's answer is not the JSON asked for, after 2 attempts (item 1)",
		);
		const description = String((error as { description?: string }).description);
		expect(description).toContain('- the answer: Instance does not have required property "wild".');
		expect(description).toContain('- age: Instance type "string" is invalid. Expected "number".');
		expect(description).toContain(
			'- tags[1]: Instance type "object" is invalid. Expected "string".',
		);
		expect(executeBodies()).toHaveLength(2);
	});

	it('a JSON Schema given by hand, and a bad one refused before any request', async () => {
		const schema = {
			type: 'object',
			properties: { score: { type: 'integer', minimum: 0, maximum: 10 } },
			required: ['score'],
		};
		emu.configureAgent(CHAT, { outputs: ['{"score": 11}', '{"score": "9"}'] });
		const { outputs, error } = await runNode({
			parameters: execute({ schemaType: 'manual', inputSchema: JSON.stringify(schema) }),
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		expect(outputs[0][0].json).toMatchObject({
			output_json: { score: 9 },
			attempts: 2,
			coercions: ['score: "9" → 9'],
		});
		expect(String((executeBodies()[1].messages as IDataObject[])[0].content)).toContain(
			'- score: 11 is greater than 10.',
		);
		emu.clearRequests();
		const bad = await runNode({
			parameters: execute({ schemaType: 'manual', inputSchema: '{"type": ' }),
			credentials: credentialsFor(emu),
		});
		expect(bad.error?.message).toBe('The JSON Schema is not valid JSON (item 1)');
		expect(emu.requests).toHaveLength(0);
	});
});

describe('Agent → Chat Completion, output format JSON', () => {
	it('a broken answer is corrected by sending the conversation again', async () => {
		emu.configureAgent(CHAT, {
			outputs: [
				'Sure! {"name": "Otter", "age": 8, "tags": ["x"]}',
				'{"name": "Otter", "age": 8, "tags": ["x"], "wild": true}',
			],
		});
		const { outputs, error } = await runNode({
			parameters: {
				resource: 'agent',
				operation: 'chatCompletion',
				agentId: byId(CHAT),
				message: 'Describe an otter',
				...chatSettings(),
				outputFormat: 'json',
				jsonSchemaExample: EXAMPLE,
			},
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		expect(outputs[0][0].json).toMatchObject({
			output_json: { name: 'Otter', age: 8, tags: ['x'], wild: true },
			attempts: 2,
		});
		expect(outputs[0][0].json).not.toHaveProperty('credits');
		const bodies = emu.requests
			.filter((r) => r.path.endsWith('/chat/completions'))
			.map((r) => r.body as IDataObject);
		expect((bodies[1].messages as IDataObject[]).map((m) => m.role)).toEqual([
			'user',
			'assistant',
			'user',
		]);
		expect((bodies[1].messages as IDataObject[])[1].content).toBe(
			'Sure! {"name": "Otter", "age": 8, "tags": ["x"]}',
		);
	});
});
