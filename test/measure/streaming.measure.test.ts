/**
 * How far apart a streamed answer's pieces reach a caller through real n8n 2.x: a Webhook in
 * "Streaming" response mode → Agent → Execute (Stream), the platform (the emulator) writing a 3 s
 * run's answer in pieces over the run. Five runs one after the other; printed per run: the writes
 * n8n made with text in them and the time from the first to the last, then the spread's least,
 * median and most. A measurement (a loaded machine bunches the pieces): the end-to-end suite checks
 * only that n8n passes the pieces on in several writes (executions.e2e.test.ts).
 *
 * Run: npm run measure -- test/measure/streaming.measure.test.ts
 */
import type { PlatformEmulator } from '../../dev/emulator';
import { agentPlatformCredential, fixtureId, log, type N8nInstance } from '../../dev/n8n/harness';
import {
	chatAgentVars,
	describeEachLine,
	loadWorkflow,
	postToStreamingWebhook,
	withOwnPaths,
} from '../e2e/fixtures';
import { useLineN8n, type LineN8n } from '../e2e/lineN8n';
import { CHAT_AGENT } from '../../dev/emulator';

const API_KEY = 'measure-streaming-key-53';
const WORKSPACE_ID = '42';
const RUN_SECONDS = 3;
const RUNS = 5;
const CREDENTIAL = { id: fixtureId('credStreamMeasur'), name: 'Agent Platform (streaming)' };
const WORKFLOW = 'webhookStream001';
const TAG = 'streaming-measure';

describeEachLine(['2.x'])('n8n $version: a streamed answer reaching the caller', (line) => {
	let emu: PlatformEmulator;
	let n8n: N8nInstance;
	let fixture: LineN8n;

	useLineN8n(
		line,
		{
			tag: TAG,
			emulator: { apiKey: API_KEY, workspaceId: WORKSPACE_ID, executionSeconds: RUN_SECONDS },
			credentials: (platform) => [
				agentPlatformCredential(platform, { ...CREDENTIAL, requestsPerSecond: 100 }),
			],
			workflows: (started) => [
				withOwnPaths(
					loadWorkflow('webhook-streaming-execute', {
						CREDENTIAL_ID: CREDENTIAL.id,
						CREDENTIAL_NAME: CREDENTIAL.name,
						...chatAgentVars(started, CHAT_AGENT),
					}),
					TAG,
				),
			],
		},
		async (setUp) => {
			({ emu, n8n, fixture } = setUp);
			await fixture.activate(WORKFLOW);
		},
	);

	test(`${RUNS} runs of ${RUN_SECONDS} s: the spread of the pieces n8n passes on`, async () => {
		const spreads: number[] = [];
		for (let run = 1; run <= RUNS; run++) {
			const response = await postToStreamingWebhook(n8n.baseUrl, `agent-stream-${TAG}`, {
				message: 'Tell me about otters',
			});
			const writes: number[] = [];
			const decoder = new TextDecoder();
			for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>)
				if (decoder.decode(chunk, { stream: true }).includes('"item"')) writes.push(Date.now());
			const spread = writes.length ? writes[writes.length - 1] - writes[0] : 0;
			spreads.push(spread);
			log(`n8n ${line.version}: run ${run}: ${writes.length} writes with text over ${spread} ms`);
		}
		const sorted = [...spreads].sort((a, b) => a - b);
		log(
			`n8n ${line.version}, ${new Date().toISOString().slice(0, 10)}: a ${RUN_SECONDS} s run's pieces reached the caller over ${sorted[0]} / ${sorted[Math.floor(RUNS / 2)]} / ${sorted[RUNS - 1]} ms (least / median / most of ${RUNS})`,
		);
		// measured: every run answered (the figures are the result)
		expect(emu.requests.filter((r) => r.path === `/agents/${CHAT_AGENT}/execute`)).toHaveLength(
			RUNS,
		);
	});
});
