/**
 * Execute's form follows the agent finally given By ID. n8n's editor asks for every lookup of the
 * form again on each change of the Agent field and applies the answers in the order they arrive
 * (its ResourceMapper.vue keeps the fields of the last answer), so typing 99999 asked for agents
 * 9, 99, … and could leave agent 9's required answers in the form. Here the lookups are asked as
 * the editor asks them while a person types, digit by digit, and every answer, whatever its order,
 * must be the final agent's; the IDs on the way cost no request. A run reads the given agent's
 * answers only, whatever the form's fields were saved with.
 */
import type { IDataObject, INodeParameters, ResourceMapperValue } from 'n8n-workflow';

import type { INodePropertyOptions, INodeType } from 'n8n-workflow';

import { LmChatAgentPlatform } from '../../../nodes/AgentPlatform/LmChatAgentPlatform.node';
import { byId, credentialsFor } from '../../infra/n8n/credentials';
import { loadOptions, resourceMapping } from '../../infra/n8n/loadOptions';
import { runNode } from '../../infra/n8n/runNode';
import { TYPED_AGENT } from '../../../nodes/AgentPlatform/methods/formAgent';
import { sleep } from '../../../dev/n8n/wait';
import { TEXT, emu, posts } from './execute.shared';

/** The seeded agent 9 is a video agent: its `script` is a required question. */
const VIDEO = 9;
/** A person's pace: a digit every 60 ms, well within the settling time. */
const KEYSTROKE_MS = 60;

const byIdForm = (agentId: string): INodeParameters => ({
	resource: 'agent',
	operation: 'execute',
	agentId: { __rl: true, mode: 'id', value: agentId },
});

const agentReads = () =>
	emu.requests.filter((r) => r.method === 'GET' && /^\/agents\/\d+$/.test(r.path));

/** The Answers' fields of a seeded agent: its questions but those of a chat's own settings. */
const ownFields = (agentId: number) =>
	emu.state.agents
		.get(agentId)!
		.questions.map((q) => q.name)
		.filter((name) => !['messages', 'root_id', 'model', 'tools', 'temperature'].includes(name));
const answerFields = async (typed: string) =>
	(
		await resourceMapping('getAnswerFields', {
			parameters: byIdForm(typed),
			credentials: credentialsFor(emu),
		})
	).fields.map((f) => f.id);

/**
 * Types `id` digit by digit: after each digit the editor asks the form's lookups for the field's
 * value so far (as n8n does on each change), without waiting for their answers.
 */
async function typeId(id: string) {
	const asked: Array<{
		typed: string;
		fields: Promise<string[]>;
		descriptions: Promise<string[]>;
		tools: Promise<string[]>;
	}> = [];
	for (let length = 1; length <= id.length; length++) {
		const typed = id.slice(0, length);
		const context = { parameters: byIdForm(typed), credentials: credentialsFor(emu) };
		asked.push({
			typed,
			fields: resourceMapping('getAnswerFields', context).then((r) => r.fields.map((f) => f.id)),
			descriptions: loadOptions('getAnswerDescriptions', context).then((r) => r.map((o) => o.name)),
			tools: loadOptions('getTools', context).then((r) => r.map((o) => String(o.value))),
		});
		if (length < id.length) await sleep(KEYSTROKE_MS);
	}
	return await Promise.all(
		asked.map(async (lookup) => ({
			typed: lookup.typed,
			fields: await lookup.fields,
			descriptions: await lookup.descriptions,
			tools: await lookup.tools,
		})),
	);
}

it('typing 99999 (no such agent) By ID: every lookup on the way answers for 99999, with nothing of agent 9; one request', async () => {
	// written by hand from the seed: agent 9 asks for a script; 99999 is no agent
	expect(emu.state.agents.get(VIDEO)?.questions.map((q) => q.name)).toContain('script');
	expect(emu.state.agents.has(99999)).toBe(false);
	const answers = await typeId('99999');
	for (const answer of answers) {
		expect(answer).toEqual({
			typed: answer.typed,
			fields: [],
			descriptions: ['No Agent With This ID'],
			tools: [''],
		});
	}
	expect(agentReads().map((r) => r.path)).toEqual(['/agents/99999']);
	// Refresh Answer List asks again for the field's ID: still nothing left of agent 9
	const { fields } = await resourceMapping('getAnswerFields', {
		parameters: byIdForm('99999'),
		credentials: credentialsFor(emu),
	});
	expect(fields).toEqual([]);
	// the platform's 404 is kept a few seconds: the Refresh cost no request more
	expect(agentReads().map((r) => r.path)).toEqual(['/agents/99999']);
});

it("typing 12 By ID, where agents 1 and 12 both exist: every answer is agent 12's; one request", async () => {
	const twelve = emu.state.agents.get(12)!;
	const one = emu.state.agents.get(1)!;
	expect(twelve.type).not.toBe(one.type);
	const answers = await typeId('12');
	for (const answer of answers) expect(answer.fields).toEqual(ownFields(12));
	expect(agentReads().map((r) => r.path)).toEqual(['/agents/12']);
});

it("a lookup asked on the way that reaches the node after the next digit's: every answer is for the ID finally typed; one request", async () => {
	// n8n's server reads its database before it calls a lookup, so the calls come in about the
	// order they were asked: in n8n 2.41.1's editor, 9999 typed back to 99999, the platform was
	// asked for 9999 only (a dropdown asked at 9999 came after the Answers asked at 99999)
	expect(emu.state.agents.has(88888)).toBe(false);
	const fields: Array<Promise<string[]>> = [];
	for (const typed of ['8', '88', '888', '8888', '88888']) {
		fields.push(answerFields(typed));
		await sleep(KEYSTROKE_MS);
	}
	const tools = loadOptions('getTools', {
		parameters: byIdForm('8888'),
		credentials: credentialsFor(emu),
	});
	expect(await Promise.all(fields)).toEqual(Array(5).fill([]));
	expect((await tools).map((o) => String(o.value))).toEqual(['']);
	expect(agentReads().map((r) => r.path)).toEqual(['/agents/88888']);
});

it('typing 22, then Backspace (2): the lookups follow the person back to agent 2; 22 costs no request', async () => {
	// written by hand from the seed: agent 2 is an image agent, 22 a chat agent
	expect([emu.state.agents.get(2)?.type, emu.state.agents.get(22)?.type]).toEqual([
		'image',
		'chat',
	]);
	const fields: Array<Promise<string[]>> = [];
	for (const typed of ['2', '22', '2']) {
		fields.push(answerFields(typed));
		await sleep(KEYSTROKE_MS);
	}
	expect(await Promise.all(fields)).toEqual(Array(3).fill(ownFields(2)));
	expect(agentReads().map((r) => r.path)).toEqual(['/agents/2']);
});

it('an ID pasted whole (40), then shortened after its form came (4): the form follows it to agent 4', async () => {
	expect(ownFields(40)).not.toEqual(ownFields(4));
	expect(await answerFields('40')).toEqual(ownFields(40));
	expect(await answerFields('4')).toEqual(ownFields(4));
	expect(agentReads().map((r) => r.path)).toEqual(['/agents/40', '/agents/4']);
});

it('an ID that stood longer than the settling time is an agent of its own: its lookups answer for it', async () => {
	const context = { parameters: byIdForm('7'), credentials: credentialsFor(emu) };
	const first = await resourceMapping('getAnswerFields', context);
	expect(first.fields.map((f) => f.id)).toEqual(ownFields(7));
	expect(TYPED_AGENT.settleMs).toBeGreaterThan(KEYSTROKE_MS * 5);
});

/**
 * One dropdown of the form as n8n's editor asks for it (ParameterInput.vue, n8n 2.x): a change of
 * the Agent field asks again only when no answer of it is pending (loadRemoteParameterOptions
 * returns while loading), and the list shown is the last answer. The Answers
 * (ResourceMapper.vue) ask on every change.
 */
class EditorDropdown {
	shown: string[] = [];
	readonly answers: string[][] = [];
	private pending: Promise<void> | undefined;
	constructor(private readonly ask: (typed: string) => Promise<INodePropertyOptions[]>) {}
	change(typed: string): void {
		if (this.pending) return;
		this.pending = this.ask(typed)
			.then((options) => {
				this.shown = options.map((option) => option.name);
				this.answers.push(this.shown);
			})
			.finally(() => (this.pending = undefined));
	}
	async settled(): Promise<void> {
		while (this.pending) await this.pending;
	}
}

const noIdNamed = (words: string[][]) => words.flat().filter((name) => /\d/.test(name));

describe("the editor's way of asking: a dropdown is not asked again while its answer is pending", () => {
	it("Execute: typing 12 (1 is a chat agent, 12 a text agent) leaves Answer Name or ID on agent 12's questions, though the editor asked it for 1 only", async () => {
		expect(emu.state.agents.get(1)!.type).toBe('chat');
		const own = ownFields(12);
		expect(own.length).toBeGreaterThan(0);
		const asked: string[] = [];
		const guide = new EditorDropdown(async (typed) => {
			asked.push(typed);
			return await loadOptions('getAnswerDescriptions', {
				parameters: byIdForm(typed),
				credentials: credentialsFor(emu),
			});
		});
		const mapped: Array<Promise<unknown>> = [];
		for (const typed of ['1', '12']) {
			guide.change(typed);
			// the Answers ask on every change: they tell the held lookup the ID typed last
			mapped.push(
				resourceMapping('getAnswerFields', {
					parameters: byIdForm(typed),
					credentials: credentialsFor(emu),
				}),
			);
			await sleep(KEYSTROKE_MS);
		}
		await guide.settled();
		await Promise.all(mapped);
		expect(asked).toEqual(['1']);
		expect(guide.shown).not.toContain('No Other Questions');
		expect(guide.shown).toHaveLength(own.length);
	});

	it('the chat model (dropdowns only): each lookup answers at once for its own ID, and its words name no ID and no agent', async () => {
		const settle = TYPED_AGENT.settleMs;
		// a lookup held for typing to settle would now take a minute: none is
		TYPED_AGENT.settleMs = 60_000;
		try {
			const model = new EditorDropdown(
				async (typed) =>
					await loadOptions('getModels', {
						parameters: { agentId: { __rl: true, mode: 'id', value: typed } },
						credentials: credentialsFor(emu),
						nodeType: new LmChatAgentPlatform() as INodeType,
					}),
			);
			// a person who types each digit once the list before has come
			for (const typed of ['9', '99', '999', '9999', '99999']) {
				model.change(typed);
				await model.settled();
			}
			// written by hand: agent 9 is a video agent; 99, 999, 9999 and 99999 are no agents: none is
			// a chat agent, and a list kept from any of them says what is true of 99999
			expect(model.answers).toEqual(
				Array(5).fill([
					'No chat agent with this ID: check the ID, or pick a chat agent from the list',
				]),
			);
			expect(noIdNamed(model.answers)).toEqual([]);
		} finally {
			TYPED_AGENT.settleMs = settle;
		}
	});
});

it("the Tools of a chat agent read in words, sent as the platform's IDs", async () => {
	const context = { parameters: byIdForm('1'), credentials: credentialsFor(emu) };
	const tools = await loadOptions('getTools', context);
	const asked = emu.state.agents.get(1)!.questions.find((q) => q.name === 'tools')!.options!;
	expect(tools.map((o) => o.value)).toEqual(['', ...asked]);
	// written by hand: the seed's first chat agent offers no-tools and web-search
	expect(tools.find((o) => o.value === 'no-tools')).toMatchObject({ name: 'No Tools' });
	expect(tools.find((o) => o.value === 'web-search')).toMatchObject({ name: 'Web Search' });
});

describe("a run reads only the given agent's answers", () => {
	/** The Answers value as n8n's editor saved it while agent 9's fields were shown. */
	const staleAnswers = (value: ResourceMapperValue['value']): ResourceMapperValue => ({
		mappingMode: 'defineBelow',
		value,
		matchingColumns: [],
		schema: [
			{
				id: 'script',
				displayName: 'Script',
				required: true,
				defaultMatch: false,
				display: true,
				type: 'string',
				canBeUsedToMatch: false,
			},
			{
				id: 'topic',
				displayName: 'Topic',
				required: true,
				defaultMatch: false,
				display: true,
				type: 'string',
				canBeUsedToMatch: false,
			},
		],
		attemptToConvertTypes: false,
		convertFieldsToString: false,
	});

	it("agent 9's required script, saved empty in the form, does not stop a run of the text agent", async () => {
		const { error, outputs } = await runNode({
			parameters: {
				resource: 'agent',
				operation: 'execute',
				agentId: byId(TEXT),
				answers: staleAnswers({ script: null, topic: 'Sea otters', tone: 'formal' }),
			},
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		expect(outputs[0][0].json.status).toBe('succeeded');
		const sent = (posts()[0].body as IDataObject).answers as IDataObject;
		expect(sent).toEqual({ topic: 'Sea otters', tone: 'formal' });
	});

	it("an answer to agent 9's script left in the form is not sent to the text agent", async () => {
		const { error } = await runNode({
			parameters: {
				resource: 'agent',
				operation: 'execute',
				agentId: byId(TEXT),
				answers: staleAnswers({ script: 'A stale script', topic: 'Sea otters', tone: 'casual' }),
			},
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		expect((posts()[0].body as IDataObject).answers).toEqual({
			topic: 'Sea otters',
			tone: 'casual',
		});
	});

	it("the given agent's own required answers are still required", async () => {
		const { error } = await runNode({
			parameters: {
				resource: 'agent',
				operation: 'execute',
				agentId: byId(TEXT),
				answers: staleAnswers({ script: 'A stale script', tone: 'casual' }),
			},
			credentials: credentialsFor(emu),
		});
		expect(error?.message).toBe(
			'The agent "Text Summarizer" needs an answer to "Topic" (topic) (item 1)',
		);
		expect(posts()).toHaveLength(0);
	});
});
