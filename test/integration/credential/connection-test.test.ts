/**
 * The credential's Test button: the nodes' credentialTest, called as n8n calls it (n8n-core's
 * CredentialTestContext, whose `request` helper goes over real sockets), against the emulator
 * and against addresses where nothing answers. Every failure is in words, never a bare code.
 */
import { CredentialTestContext } from 'n8n-core';
import type { ICredentialsDecrypted, INodeCredentialTestResult } from 'n8n-workflow';

import { AgentPlatform } from '../../../nodes/AgentPlatform/AgentPlatform.node';
import { AgentPlatformTrigger } from '../../../nodes/AgentPlatform/AgentPlatformTrigger.node';
import type { PlatformEmulator } from '../../../dev/emulator';
import { freePort } from '../../../dev/loopback';
import { useEmulator } from '../../infra/useEmulator';

let emu: PlatformEmulator;
useEmulator({ quiet: true }, (started) => (emu = started));

async function testCredential(data: Record<string, string>): Promise<INodeCredentialTestResult> {
	const credential: ICredentialsDecrypted = {
		id: '1',
		name: 'Agent Platform',
		type: 'agentPlatformApi',
		data,
	};
	const test = new AgentPlatform().methods.credentialTest.testAgentPlatformApi;
	return await test.call(new CredentialTestContext(), credential);
}

const good = () => ({ baseUrl: emu.url, apiKey: emu.apiKey, workspaceId: String(emu.workspaceId) });
const RAW_CODE = /\b(E[A-Z]{4,}|ERR_[A-Z_]+)\b/;

it('both nodes name the function test for the credential (n8n finds it through either)', () => {
	for (const node of [new AgentPlatform(), new AgentPlatformTrigger()]) {
		expect(node.description.credentials).toEqual([
			{ name: 'agentPlatformApi', required: true, testedBy: 'testAgentPlatformApi' },
		]);
		expect(typeof node.methods.credentialTest.testAgentPlatformApi).toBe('function');
	}
});

it('a working credential: one request for one agent, with the key and the workspace', async () => {
	const before = emu.requests.length;
	expect(await testCredential(good())).toEqual({ status: 'OK', message: 'Connection successful' });
	const sent = emu.requests.slice(before);
	expect(sent).toHaveLength(1);
	expect(sent[0]).toMatchObject({ method: 'GET', path: '/agents', query: { per_page: '1' } });
	expect(sent[0].headers).toMatchObject({
		authorization: `Bearer ${emu.apiKey}`,
		'x-workspace-id': String(emu.workspaceId),
	});
});

it('a trailing slash and spaces around the key are fine', async () => {
	expect(
		await testCredential({ ...good(), baseUrl: `${emu.url}/`, apiKey: ` ${emu.apiKey} ` }),
	).toMatchObject({ status: 'OK' });
});

it('every failure in plain words', async () => {
	const closed = `http://127.0.0.1:${await freePort()}`;
	const host = new URL(emu.url).host;
	const cases: Array<[string, Record<string, string>, RegExp]> = [
		[
			'nothing listening',
			{ ...good(), baseUrl: closed },
			/^Nothing answered at 127\.0\.0\.1:\d+: check the Base URL/,
		],
		[
			'no http://',
			{ ...good(), baseUrl: host },
			/^The Base URL ".*" must start with https:\/\/ \(or http:\/\/\): try http:\/\/127/,
		],
		['not a URL', { ...good(), baseUrl: 'http://exa mple' }, /is not a web address/],
		['wrong key (403)', { ...good(), apiKey: 'wrong' }, /^The platform rejected the API key/],
		['wrong workspace (422)', { ...good(), workspaceId: '999' }, /refused the Workspace ID/],
		[
			'wrong path (404)',
			{ ...good(), baseUrl: `${emu.url}/nothing-here` },
			/the Agent Platform API is not there .*Check the Base URL/,
		],
	];
	for (const [what, data, words] of cases) {
		const result = await testCredential(data);
		expect({ what, ...result }).toEqual({
			what,
			status: 'Error',
			message: expect.stringMatching(words),
		});
		expect(result.message).not.toMatch(RAW_CODE);
		expect(result.message).not.toContain(emu.apiKey);
		expect(result.message).not.toMatch(/ends? (with|in)/);
	}
});

it('each hint for a mistyped Base URL names an address that passes the Test', async () => {
	const { host } = new URL(emu.url);
	const mistyped = [
		host, // no scheme
		`htp://${host}`, // a typo in the scheme
		`http//${host}/`, // a colon missing
		`${emu.url}/v1`, // a path the platform does not have (404)
		`${emu.url}/agents/12/openai/chat/completions`, // an endpoint copied whole (404)
	];
	for (const baseUrl of mistyped) {
		const failed = await testCredential({ ...good(), baseUrl });
		const hinted = /\btry (\S+?)[:.]?(?:\s|$)/i.exec(failed.message)?.[1];
		expect({ baseUrl, status: failed.status, message: failed.message, hinted }).toEqual({
			baseUrl,
			status: 'Error',
			message: expect.stringMatching(/\btry /i),
			hinted: emu.url,
		});
		expect(await testCredential({ ...good(), baseUrl: hinted! })).toMatchObject({ status: 'OK' });
	}
});
