/**
 * What npm start checks: on every start, that the editor and the emulator answer as a browser and
 * the node would; with --smoke, what a newcomer does first (sign in, test the credential, run the
 * stream example through its webhook).
 */
import type { PlatformEndpoint } from '../n8n/examples';
import type { OwnerAccount } from '../n8n/client';
import type { N8nInstance } from '../n8n/instance';
import { log, secondsSince } from '../n8n/log';

/** Checks the editor's page and the emulator's agents; returns how many agents it has. */
export async function selfCheck(
	n8n: N8nInstance,
	platform: PlatformEndpoint,
): Promise<number | undefined> {
	const editor = await fetch(`${n8n.baseUrl}/`, { signal: AbortSignal.timeout(10_000) });
	const html = await editor.text();
	if (editor.status !== 200 || !/<html/i.test(html))
		throw new Error(`the editor answered HTTP ${editor.status}`);
	const agents = await fetch(`${platform.url}/agents?per_page=1`, {
		headers: {
			authorization: `Bearer ${platform.apiKey}`,
			'x-workspace-id': String(platform.workspaceId),
		},
		signal: AbortSignal.timeout(10_000),
	});
	const body = (await agents.json()) as { total?: number; data?: unknown[] };
	if (agents.status !== 200)
		throw new Error(`the emulator answered HTTP ${agents.status}: ${JSON.stringify(body)}`);
	return body.total ?? body.data?.length;
}

/**
 * `--smoke`: signs in with the printed account, presses the credential's Test button, and runs the
 * stream example through its webhook. Throws naming the step that failed.
 */
export async function smokeTest(
	n8n: N8nInstance,
	owner: OwnerAccount,
	credential: { id: string; name: string },
): Promise<void> {
	const step = async (what: string, fn: () => Promise<string | void>) => {
		const since = Date.now();
		try {
			const said = await fn();
			log(`smoke: ${what}: ok${said ? ` (${said})` : ''} in ${secondsSince(since)}`);
		} catch (e) {
			throw new Error(`smoke: ${what} failed: ${e instanceof Error ? e.message : String(e)}`);
		}
	};
	await step('sign in with the printed e-mail and password', async () => {
		await n8n.login(owner);
	});
	await step(`test the credential "${credential.name}"`, async () => {
		const stored = await n8n.rest('GET', `/credentials/${credential.id}?includeData=true`);
		const result = await n8n.rest<{ status?: string; message?: string }>(
			'POST',
			'/credentials/test',
			{ credentials: stored },
		);
		if (result.status !== 'OK') throw new Error(`n8n said ${JSON.stringify(result)}`);
		return result.message;
	});
	await step('run the example "stream an agent\'s answer to a webhook caller"', async () => {
		const scopes = await n8n.rest<string[]>('GET', '/api-keys/scopes');
		const key = await n8n.rest<{ rawApiKey: string }>('POST', '/api-keys', {
			label: 'npm start --smoke',
			scopes,
			expiresAt: null,
		});
		n8n.apiKey = key.rawApiKey;
		await n8n.activate('exampleStream001');
		let response: Response | undefined;
		for (let attempt = 0; attempt < 60; attempt++) {
			response = await fetch(`${n8n.baseUrl}/webhook/ask-agent`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ message: 'Tell me about otters' }),
				signal: AbortSignal.timeout(60_000),
			});
			if (response.status !== 404) break;
			await response.text();
			await new Promise((r) => setTimeout(r, 500));
		}
		const text = await response!.text();
		if (response!.status !== 200)
			throw new Error(`the webhook answered HTTP ${response!.status}: ${text.slice(0, 500)}`);
		const pieces = text
			.split('\n')
			.filter((l) => l.trim())
			.map((l) => JSON.parse(l) as { type?: string; content?: string })
			.filter((m) => m.type === 'item');
		const answer = pieces.map((m) => m.content).join('');
		if (pieces.length < 2 || !answer.includes('otters')) {
			throw new Error(`the answer did not stream as expected: ${text.slice(0, 500)}`);
		}
		return `${pieces.length} pieces streamed`;
	});
}
