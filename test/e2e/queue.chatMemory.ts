/**
 * A chat that remembers in queue mode (queue.cases.ts runs it after the rate limits, on the line's
 * one set-up of queue.shared.ts): Chat Trigger (public) → Agent → Execute with n8n's Redis Chat
 * Memory, the chat's messages received by the webhook processor. The first message is run by one
 * worker; that worker is then stopped, so the second message is run by the other: the second
 * request still continues the first conversation (its root_id, read from Redis), one request a
 * turn. The chat memory has a Redis of its own (Debian's redis-server, as the queue's). The
 * stopped worker is started again for the cases after it.
 */
import { agentExecutes, sendChatMessage } from './chatMemory.shared';
import {
	CHAT_AGENT,
	CHAT_WEBHOOKS,
	QUEUE_WORKFLOWS,
	type Execution,
	type QueueSuite,
} from './queue.shared';

export function chatMemoryCases(cluster: () => QueueSuite): void {
	describe('a chat with Redis Chat Memory across workers', () => {
		let suite: QueueSuite;
		let stopped: number | undefined;

		beforeAll(() => {
			suite = cluster();
			suite.emu.clearRequests();
		});
		afterAll(async () => {
			if (stopped !== undefined) await suite.queue.startWorkerAgain(stopped);
		});

		const executes = () => agentExecutes(suite.emu, CHAT_AGENT);

		/** One chat message to the public chat, through the webhook processor; its answer. */
		async function say(sessionId: string, chatInput: string): Promise<string> {
			const url = `${suite.queue.webhook.baseUrl}/webhook/${CHAT_WEBHOOKS.memory}/chat`;
			const { status, text } = await sendChatMessage(url, sessionId, chatInput);
			// n8n's 500 says only "Error in workflow": the execution's own error says why
			if (status !== 200) expect({ status, text, error: await newestError() }).toBe(200);
			return (JSON.parse(text) as { output: string }).output;
		}

		/** The error of the newest execution of the workflow, as n8n recorded it. */
		async function newestError(): Promise<unknown> {
			const [newest] = (await suite.queue.main.getExecutions(QUEUE_WORKFLOWS.memoryChat, {
				limit: 1,
			})) as Array<Execution & { data?: { resultData?: { error?: { message?: string } } } }>;
			return { status: newest?.status, message: newest?.data?.resultData?.error?.message };
		}

		/** The worker (by index) that ran the newest execution of the workflow. */
		async function workerOfNewest(): Promise<number> {
			const [newest] = (await suite.queue.main.getExecutions(QUEUE_WORKFLOWS.memoryChat, {
				limit: 1,
			})) as Execution[];
			return await suite.workerOf(newest.id);
		}

		test('two messages run by different workers continue one conversation, one request a turn', async () => {
			const { emu, queue } = suite;
			const first = await say('queue-ada', 'My name is Ada.');
			expect(executes()).toHaveLength(1);
			expect(executes()[0].root_id).toBeUndefined();
			const rootId = [...emu.state.runs.values()].pop()!.root_id;
			const firstWorker = await workerOfNewest();
			// the worker that ran the first message stops: the second goes to the other one
			stopped = firstWorker;
			await queue.workers[firstWorker].stop();

			const second = await say('queue-ada', 'What is my name?');
			const secondWorker = await workerOfNewest();
			expect(secondWorker).not.toBe(firstWorker);
			expect(executes()).toHaveLength(2);
			expect(executes()[1]).toMatchObject({
				root_id: rootId,
				messages: [{ role: 'user', content: 'What is my name?' }],
			});
			expect(first).not.toContain('Earlier in this conversation');
			expect(second).toContain('Earlier in this conversation you wrote: "My name is Ada."');

			// another chat session starts its own conversation
			await say('queue-bob', 'What is my name?');
			expect(executes()[2].root_id).toBeUndefined();
		});
	});
}
