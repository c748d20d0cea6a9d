/**
 * Agent executions against the emulator, through n8n's real execution machinery: every response
 * mode, runs longer than the platform's 100 s wait (time-scaled), broken and silent streams,
 * cancellation, failing runs, chat completions, and the checks made before any request.
 *
 * This file: wait for completion, start only.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { ALWAYS_FAILS_ERROR } from '../../../dev/emulator';
import { credentialsFor } from '../../infra/n8n/credentials';
import { runNode } from '../../infra/n8n/runNode';
import { CHAT, FAILS, TEXT, chatSettings, emu, execute, polls, posts } from './execute.shared';

describe('Agent → Execute: wait for completion', () => {
	it('returns the finished run as a simplified item, with root_id', async () => {
		const { outputs, error } = await runNode({
			parameters: execute(),
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		const item = outputs[0][0].json;
		// every field the platform sent but the echoed input; template_id also as agent_id; the
		// platform's status word kept beside the common one; generated_files always
		expect(Object.keys(item).sort()).toEqual([
			'agent_id',
			'created_at',
			'credits',
			'error',
			'generated_files',
			'id',
			'output',
			'platform_status',
			'root_id',
			'status',
			'template_id',
			'updated_at',
		]);
		expect(item.status).toBe('succeeded');
		expect(item.output).toContain('Hello there, agent');
		expect(item.root_id).toBe(item.id);
		expect(item.agent_id).toBe(CHAT);
		expect(Number(item.credits)).toBeGreaterThan(0);
		// the body carries answers and the same fields at the top level, and both wait flags: on, so
		// that a run within the platform's 100 s wait costs this one request (docs/never-lose-a-run.md)
		const body = posts()[0].body as IDataObject;
		expect(body).toMatchObject({ wait_execution: true, waitExecution: true, ...chatSettings() });
		expect(body.answers).toMatchObject({
			...chatSettings(),
			messages: [{ role: 'user', content: 'Hello there, agent' }],
		});
		expect(body.messages).toEqual([{ role: 'user', content: 'Hello there, agent' }]);
	});

	it("a run longer than the platform's 100 s wait completes through polling", async () => {
		emu.configureAgent(CHAT, { executionSeconds: 400 });
		try {
			const { outputs, error } = await runNode({
				parameters: execute(),
				credentials: credentialsFor(emu),
			});
			expect(error).toBeUndefined();
			expect(outputs[0][0].json.status).toBe('succeeded');
			expect(posts()).toHaveLength(1);
			expect(polls().length).toBeGreaterThan(0);
			expect(polls().length).toBeLessThan(10);
		} finally {
			emu.configureAgent(CHAT, { executionSeconds: 50 });
		}
	});

	it('continues a conversation with root_id', async () => {
		const first = await runNode({ parameters: execute(), credentials: credentialsFor(emu) });
		const rootId = first.outputs[0][0].json.root_id;
		const second = await runNode({
			parameters: execute({ message: 'And then?', options: { rootId: '={{ $json.root_id }}' } }),
			items: [{ json: { root_id: rootId } }],
			credentials: credentialsFor(emu),
		});
		expect(second.error).toBeUndefined();
		expect(second.outputs[0][0].json.root_id).toBe(rootId);
		expect(second.outputs[0][0].json.id).not.toBe(rootId);
	});

	it('answers a non-chat agent field by field and as JSON, numbers and arrays typed', async () => {
		const { outputs, error } = await runNode({
			parameters: execute(
				{
					answers: {
						mappingMode: 'defineBelow',
						value: { topic: 'Otters', tone: 'friendly', max_words: '120' },
					},
					options: { answersJson: '{"keywords": ["river", "play"]}', fullResponse: true },
				},
				TEXT,
			),
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		expect(outputs[0][0].json.status).toBe('succeeded');
		expect(outputs[0][0].json.template_id).toBe(TEXT); // the whole record
		const body = posts()[0].body as IDataObject;
		expect(body.answers).toEqual({
			topic: 'Otters',
			tone: 'friendly',
			max_words: 120,
			keywords: ['river', 'play'],
		});
		expect(body).toMatchObject({ topic: 'Otters', tone: 'friendly', max_words: 120 });
	});

	it('Model, Tools and Temperature left from the chat agent are not sent to a text agent; an array answer typed as text', async () => {
		const { error } = await runNode({
			parameters: execute(
				{
					...chatSettings(CHAT),
					answers: {
						mappingMode: 'defineBelow',
						value: { topic: 'Otters', tone: 'friendly', keywords: '["river"]' },
					},
				},
				TEXT,
			),
			credentials: credentialsFor(emu),
		});
		expect(error).toBeUndefined();
		const body = posts()[0].body as IDataObject;
		expect(body.answers).toEqual({ topic: 'Otters', tone: 'friendly', keywords: ['river'] });
	});

	it('a failing run becomes a clear error carrying the response id', async () => {
		const { error } = await runNode({
			parameters: execute(
				{ answers: { mappingMode: 'defineBelow', value: { topic: 'x', tone: 'formal' } } },
				FAILS,
			),
			credentials: credentialsFor(emu),
		});
		expect(error).toBeInstanceOf(NodeApiError);
		const responseId = emu.state.runs.size ? [...emu.state.runs.keys()].pop() : undefined;
		expect(error?.message).toBe(
			`The agent run ${responseId} ended with status "failed": ${ALWAYS_FAILS_ERROR}`,
		);
	});

	it("gives up at the node's timeout, saying how to fetch the run later", async () => {
		emu.configureAgent(CHAT, { executionSeconds: 100_000 });
		try {
			const { error } = await runNode({
				parameters: execute({ options: { timeout: 0.05 } }), // 3 seconds
				credentials: credentialsFor(emu),
			});
			expect(error?.message).toMatch(/^The agent run \d+ did not finish within 3 seconds$/);
			expect((error as NodeApiError).description).toMatch(/Agent Response → Get/);
		} finally {
			emu.configureAgent(CHAT, { executionSeconds: 50 });
		}
	});

	it('stops polling when the n8n execution is cancelled', async () => {
		emu.configureAgent(CHAT, { executionSeconds: 100_000 });
		try {
			const { cancelled } = await runNode({
				parameters: execute(),
				credentials: credentialsFor(emu),
				// once the run started and was polled (a fixed time may pass before the start on a loaded machine)
				cancelWhen: emu.waitFor(() => posts().length === 1 && emu.requests.length > 1, 30_000),
			});
			expect(cancelled).toBe(true);
			const seen = emu.requests.length;
			await new Promise((resolve) => setTimeout(resolve, 2500));
			expect(emu.requests.length).toBe(seen);
			expect(posts()).toHaveLength(1);
		} finally {
			emu.configureAgent(CHAT, { executionSeconds: 50 });
		}
	});
});

describe('Agent → Execute: start only, and Agent Response → Get', () => {
	it('returns the starting response, then Get waits for the end', async () => {
		const started = await runNode({
			parameters: execute({ responseMode: 'start' }),
			credentials: credentialsFor(emu),
		});
		expect(started.outputs[0][0].json).toMatchObject({ status: 'starting', output: '' });
		const { id } = started.outputs[0][0].json;
		expect((posts()[0].body as IDataObject).wait_execution).toBe(false);

		const fetched = await runNode({
			parameters: {
				resource: 'agentResponse',
				operation: 'get',
				responseId: String(id),
				waitForCompletion: true,
			},
			credentials: credentialsFor(emu),
		});
		expect(fetched.error).toBeUndefined();
		expect(fetched.outputs[0][0].json).toMatchObject({ id, status: 'succeeded', root_id: id });
	});

	it('Get of an unknown run says so', async () => {
		const { error } = await runNode({
			parameters: { resource: 'agentResponse', operation: 'get', responseId: '987654' },
			credentials: credentialsFor(emu),
		});
		expect(error?.message).toBe('The platform could not find agent response 987654');
	});
});
