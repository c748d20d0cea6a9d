/**
 * Interactive first (transport/pace/workClass.ts, paceQueue.ts): which requests a person waits on,
 * an interactive request overtaking queued bulk pages, bulk keeping one send in three, each class
 * first come first served, and a long wait written to n8n's log with its reason.
 * Waiting is real (n8n-workflow's sleep), so the rates are high and the waits short.
 */
import { Pace, PACING, workClassOf } from '../../../nodes/AgentPlatform/transport/pace';
import { context, inMode, stopClock, takeAll, takeAllAtOnce, usePacingSettings } from './setup';

type Ctx = ReturnType<typeof context>;

const many = (prefix: string, count: number, mode: string): Array<[string, Ctx]> =>
	Array.from({ length: count }, (_, i) => [`${prefix}${i + 1}`, inMode(mode)]);

const webhookRun = (trigger: { type: string; parameters?: object }, extra: object = {}) =>
	inMode('webhook', {
		getParentNodes: () => [{ name: 'Trigger', typeVersion: 1, disabled: false, ...trigger }],
		...extra,
	});

/** A tool or model: n8n-core's SupplyDataContext names the root node it serves (`parentNode`). */
const modelUnder = (responseMode: string) =>
	inMode('webhook', {
		parentNode: { name: 'AI Agent' },
		getParentNodes: (name: string) =>
			name === 'AI Agent'
				? [
						{
							name: 'Webhook',
							type: 'n8n-nodes-base.webhook',
							typeVersion: 2,
							disabled: false,
							parameters: { responseMode },
						},
					]
				: [],
		getChatTrigger: () => null,
	});

describe('interactive work first', () => {
	usePacingSettings();

	it('tells who is waiting: the editor, n8n chat, a streaming caller, a webhook caller who waits', () => {
		const lookup = context(undefined, { getCurrentNodeParameters: () => ({}) });
		const cases: Array<[string, ReturnType<typeof context>, string]> = [
			['editor lookup', lookup, 'interactive'],
			['run from the editor', inMode('manual'), 'interactive'],
			['n8n chat', inMode('chat'), 'interactive'],
			['streaming caller', inMode('webhook', { isStreaming: () => true }), 'interactive'],
			['Chat Trigger', webhookRun({ type: '@n8n/n8n-nodes-langchain.chatTrigger' }), 'interactive'],
			[
				'Webhook answering when the workflow ends',
				webhookRun({ type: 'n8n-nodes-base.webhook', parameters: { responseMode: 'lastNode' } }),
				'interactive',
			],
			[
				'Webhook answering at once',
				webhookRun({ type: 'n8n-nodes-base.webhook', parameters: { responseMode: 'onReceived' } }),
				'bulk',
			],
			[
				'Webhook with its default (at once)',
				webhookRun({ type: 'n8n-nodes-base.webhook', parameters: {} }),
				'bulk',
			],
			[
				"this package's trigger",
				webhookRun({ type: 'n8n-nodes-agent-platform.agentPlatformTrigger' }),
				'bulk',
			],
			[
				'a tool inside the AI Agent of a chat (no ancestors on the main connections)',
				inMode('webhook', {
					getParentNodes: () => [],
					getChatTrigger: () => ({ disabled: false }),
				}),
				'interactive',
			],
			[
				'a model of an AI Agent under a Webhook answering at the end',
				modelUnder('lastNode'),
				'interactive',
			],
			[
				'a model of an AI Agent under a Webhook answering at once',
				modelUnder('onReceived'),
				'bulk',
			],
			['schedule', inMode('trigger'), 'bulk'],
			['sub-workflow', inMode('integrated'), 'bulk'],
			['no mode known', context(), 'bulk'],
		];
		expect(cases.map(([name, ctx]) => [name, workClassOf(ctx)])).toEqual(
			cases.map(([name, , expected]) => [name, expected]),
		);
	});

	it('an interactive request overtakes queued bulk pages; each class keeps its own order', async () => {
		const pace = new Pace(40);
		const sent: string[] = [];
		// the clock stands still until the chat has asked: a late timer here cannot let page 2 go first
		const startClock = stopClock();
		const paging = takeAll(pace, many('P', 5, 'trigger'), sent);
		// the chat arrives while page 2 waits at the gate and pages 3 to 5 wait in the queue
		await new Promise((resolve) => setTimeout(resolve, 5));
		const chat = takeAll(pace, many('C', 2, 'chat'), sent);
		startClock();
		await Promise.all([paging, chat]);
		expect(sent).toEqual(['P1', 'C1', 'C2', 'P2', 'P3', 'P4', 'P5']);
		// no page sent twice, none left out
		expect(pace.stats.sent).toBe(7);
	});

	it('bulk keeps one send in three while interactive work waits', async () => {
		const pace = new Pace(100);
		const sent = await takeAllAtOnce(pace, [...many('B', 4, 'trigger'), ...many('I', 6, 'manual')]);
		// B1 was sent at once; then interactive first, bulk every third send
		expect(sent).toEqual(['B1', 'I1', 'I2', 'B2', 'I3', 'I4', 'B3', 'I5', 'I6', 'B4']);
	});

	it('writes a long wait to n8n’s log with the rate and how many were ahead', async () => {
		PACING.logWaitMs = 30;
		const logged: string[] = [];
		const logger = { info: (message: string) => logged.push(message) };
		const pace = new Pace(20);
		const ahead = [pace.take(inMode('trigger')), pace.take(inMode('trigger'))];
		const waited = pace.take(inMode('trigger', { logger }));
		for (const slot of ahead) pace.answered(await slot, 200);
		pace.answered(await waited, 200);
		expect(logged).toHaveLength(1);
		expect(logged[0]).toMatch(
			/a request of node "Agent Platform" \(bulk work\) waited \d+\.\d s to be sent: this credential is paced at 20 requests a second and 1 request was ahead of it$/,
		);
	});
});
