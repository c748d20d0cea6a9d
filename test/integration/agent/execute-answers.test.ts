/**
 * What the editor loads once an agent is picked: the searchable agent list, the agent's own
 * model, tools and temperature choices, and its other questions as answer fields.
 */
import type { PlatformEmulator } from '../../../dev/emulator';
import { TEMPERATURE_OPTIONS } from '../../../dev/emulator';
import { credentialsFor, listSearch, loadOptions, resourceMapping } from '../../infra/n8n';
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
	expect(fields.map((f) => f.displayName)).toEqual([
		'topic',
		'tone',
		'max_words',
		'keywords (JSON array)',
	]);
	expect(fields[1].options?.map((o) => o.value)).toEqual(['formal', 'casual', 'friendly']);
});

it("a chat agent's dedicated questions are not repeated as answer fields", async () => {
	const result = await resourceMapping('getAnswerFields', {
		parameters: parameters('1'),
		credentials: credentialsFor(emu),
	});
	expect(result.fields).toEqual([]);
	expect(result.emptyFieldsNotice).toBe('This agent asks no other questions.');
});
