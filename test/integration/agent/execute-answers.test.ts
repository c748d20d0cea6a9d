/**
 * What the editor loads once an agent is picked: the searchable agent list, the agent's own
 * model, tools and temperature choices, and its other questions as answer fields.
 */
import type { PlatformEmulator } from '../../../dev/emulator';
import { TEMPERATURE_OPTIONS } from '../../../dev/emulator';
import { credentialsFor } from '../../infra/n8n/credentials';
import { listSearch, loadOptions, resourceMapping } from '../../infra/n8n/loadOptions';
import { useEmulator } from '../../infra/useEmulator';

let emu: PlatformEmulator;
useEmulator({ quiet: true }, (started) => (emu = started));

const parameters = (agentId: string) => ({
	resource: 'agent',
	operation: 'execute',
	agentId: { __rl: true, mode: 'list', value: agentId },
});

it('the agent picker searches on the platform and pages', async () => {
	const first = await listSearch('searchAgents', {
		parameters: parameters(''),
		credentials: credentialsFor(emu),
	});
	// one page of up to 100 (every page is a request): the 40 agents, and no next page
	expect(first.results).toHaveLength(40);
	expect(first.paginationToken).toBeUndefined();
	expect(emu.requests.at(-1)?.query).toMatchObject({ page: '1', per_page: '100' });
	// the agent's own description is part of the name: n8n shows only names, in the list and once picked
	expect(first.results[0]).toMatchObject({
		name: 'Chat Assistant (chat) — Conversational agent that answers questions (Chat Assistant)',
		value: '1',
		description: 'Conversational agent that answers questions (Chat Assistant)',
	});
	const found = await listSearch('searchAgents', {
		parameters: parameters(''),
		credentials: credentialsFor(emu),
		filter: 'fails',
	});
	expect(found.results.map((r) => r.value)).toEqual(['5']);
	expect(emu.requests.at(-1)?.query).toMatchObject({ q: 'fails' });
});

it("model, tools and temperature are the picked agent's own options", async () => {
	for (const agentId of [1, 6]) {
		const agent = emu.state.agents.get(agentId)!;
		const options = (name: string) => agent.questions.find((q) => q.name === name)!.options;
		const context = { parameters: parameters(String(agentId)), credentials: credentialsFor(emu) };
		// "Agent Default" (sends nothing) first, then the agent's own options; Temperature also Custom
		expect((await loadOptions('getModels', context)).map((o) => o.value)).toEqual([
			'',
			...options('model')!,
		]);
		expect((await loadOptions('getTools', context)).map((o) => o.value)).toEqual([
			'',
			...options('tools')!,
		]);
		expect((await loadOptions('getTemperatures', context)).map((o) => o.value)).toEqual([
			'',
			...TEMPERATURE_OPTIONS,
			'custom',
		]);
		expect((await loadOptions('getModels', context))[0].name).toBe('Agent Default');
	}
	const models1 = await loadOptions('getModels', {
		parameters: parameters('1'),
		credentials: credentialsFor(emu),
	});
	const models6 = await loadOptions('getModels', {
		parameters: parameters('6'),
		credentials: credentialsFor(emu),
	});
	expect(models1).not.toEqual(models6);
});

it('a Model left from another agent is listed as not sent, not marked unsupported', async () => {
	const context = (agentId: string) => ({
		parameters: { ...parameters(agentId), model: 'gpt-4o-mini' },
		credentials: credentialsFor(emu),
	});
	const text = await loadOptions('getModels', context('3'));
	expect(text).toEqual([
		expect.objectContaining({ name: 'Agent Default', value: '' }),
		expect.objectContaining({ name: 'gpt-4o-mini (not sent to this agent)', value: 'gpt-4o-mini' }),
	]);
	// the chat agent asks for a model: only its own options
	const chat = await loadOptions('getModels', context('1'));
	expect(chat.filter((option) => /not sent/.test(option.name))).toEqual([]);
});

it("a non-chat agent's questions become typed answer fields", async () => {
	const { fields } = await resourceMapping('getAnswerFields', {
		parameters: parameters('3'),
		credentials: credentialsFor(emu),
	});
	expect(fields.map((f) => [f.id, f.type, f.required])).toEqual([
		['topic', 'string', true],
		['tone', 'options', true],
		['max_words', 'number', false],
		// a text field: n8n's JSON editor marks an empty (unanswered) array as an error
		['keywords', 'string', false],
	]);
	// words a person reads, within n8n's width, a required answer marked (n8n 2.41.1 shows no mark of
	// its own in mode map); the ids stay the platform's names
	expect(fields.map((f) => f.displayName)).toEqual([
		'Topic *',
		'Tone *',
		'Max Words',
		'Keywords (JSON list)',
	]);
	expect(fields.every((f) => f.displayName.length <= 25)).toBe(true);
	expect(fields[1].options?.map((o) => o.value)).toEqual(['formal', 'casual', 'friendly']);
});

it("a chat agent's dedicated questions are not repeated as answer fields", async () => {
	const result = await resourceMapping('getAnswerFields', {
		parameters: parameters('1'),
		credentials: credentialsFor(emu),
	});
	expect(result.fields).toEqual([]);
	// n8n shows this notice as a yellow warning; an agent without other questions shows no field
	expect(result.emptyFieldsNotice).toBeUndefined();
});

describe("the questions' descriptions on the form", () => {
	const agentNamed = (title: string) =>
		String([...emu.state.agents.values()].find((agent) => agent.title === title)!.id);
	const context = (agentId: string) => ({
		parameters: parameters(agentId),
		credentials: credentialsFor(emu),
	});

	it('Answer Name or ID lists each answer field in words with its description, and whether it needs an answer', async () => {
		const image = agentNamed('Image Creator');
		const { fields } = await resourceMapping('getAnswerFields', context(image));
		const described = await loadOptions('getAnswerDescriptions', context(image));
		// one option per answer field, valued by the field's id (never sent: the dropdown is for reading)
		expect(described.map((option) => option.value)).toEqual(fields.map((field) => field.id));
		expect(described).toEqual([
			{ name: 'Prompt', value: 'prompt', description: 'What the image should show. Required.' },
			{ name: 'Size', value: 'size', description: 'Image size. Required.' },
			{ name: 'Count', value: 'count', description: 'How many images to create. Optional.' },
			{
				name: 'Negative Keywords',
				value: 'negative_keywords',
				description:
					'Things the image must not show. Optional. A JSON list, e.g. ["first", "second"].',
			},
		]);
	});

	it('a pick left from the agent picked before is listed first as not asked by this one; the list follows the agent now picked', async () => {
		const image = agentNamed('Image Creator');
		const described = await loadOptions('getAnswerDescriptions', {
			...context(image),
			parameters: { ...context(image).parameters, answerDescriptions: 'topic' },
		});
		expect(described[0]).toEqual({
			name: 'Topic: Not Asked by This Agent',
			value: 'topic',
			description:
				'Left from the agent picked before. This agent has no such answer; the list below shows what it asks.',
		});
		expect(described.slice(1).map((option) => option.value)).toEqual([
			'prompt',
			'size',
			'count',
			'negative_keywords',
		]);
		// a pick this agent asks for is one of its own options, not repeated
		const kept = await loadOptions('getAnswerDescriptions', {
			...context(image),
			parameters: { ...context(image).parameters, answerDescriptions: 'size' },
		});
		expect(kept.map((option) => option.value)).toEqual([
			'prompt',
			'size',
			'count',
			'negative_keywords',
		]);
	});

	it("a select answer's options carry its description, which n8n shows under each option; the ids stay the platform's names", async () => {
		const { fields } = await resourceMapping(
			'getAnswerFields',
			context(agentNamed('Image Creator')),
		);
		expect(fields.map((field) => field.id)).toEqual([
			'prompt',
			'size',
			'count',
			'negative_keywords',
		]);
		expect(fields[1].options).toEqual(
			['512x512', '1024x1024', '1792x1024'].map((size) => ({
				name: size,
				value: size,
				description: 'Image size',
			})),
		);
	});

	it('a chat agent, whose questions are parameters of their own, gets one option that says so', async () => {
		expect(await loadOptions('getAnswerDescriptions', context('1'))).toEqual([
			expect.objectContaining({ name: 'No Other Questions', value: 'none' }),
		]);
		expect(await loadOptions('getAnswerDescriptions', context(''))).toEqual([]);
	});

	it("the editor's lookups of one pick share one read of the agent", async () => {
		const video = agentNamed('Video Maker');
		const reads = () => emu.requests.filter((r) => r.path === `/agents/${video}`).length;
		const before = reads();
		await Promise.all([
			resourceMapping('getAnswerFields', context(video)),
			loadOptions('getAnswerDescriptions', context(video)),
			loadOptions('getModels', context(video)),
		]);
		expect(reads() - before).toBe(1);
	});
});
