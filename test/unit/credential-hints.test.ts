/**
 * The credential Test's hints for a Base URL (methods/credentialTest.ts): each names an address
 * that works. The expected addresses are written by hand from the platform's documented address,
 * https://api.tess.im with its paths at the root (docs/platform-assumptions.md, row 1); that the
 * hinted addresses pass the Test against the emulator is shown in
 * test/integration/credential/connection-test.test.ts.
 */
import { checkBaseUrl, likelyBaseUrl } from '../../nodes/AgentPlatform/methods/credentialTest';

const problemOf = (raw: string) => {
	const checked = checkBaseUrl(raw);
	return 'problem' in checked ? checked.problem : undefined;
};

describe('a Base URL without a scheme', () => {
	it.each([
		['api.tess.im', 'https://api.tess.im'],
		['api.tess.im/', 'https://api.tess.im'],
		['tess.pareto.io/api', 'https://tess.pareto.io/api'],
		['localhost:5678', 'http://localhost:5678'],
		['127.0.0.1:8080', 'http://127.0.0.1:8080'],
	])('%s: the hint is %s', (raw, expected) => {
		expect(problemOf(raw)).toBe(
			`The Base URL "${raw.replace(/\/$/, '')}" must start with https:// (or http://): try ${expected}`,
		);
	});
});

describe('a Base URL with a path', () => {
	it.each([
		['api.tess.im/agents', 'https://api.tess.im'],
		['https://api.tess.im/v1', 'https://api.tess.im'],
		['https://api.tess.im/agents/12/execute', 'https://api.tess.im'],
		['https://api.tess.im/agents/12/openai/chat/completions', 'https://api.tess.im'],
		['https://tess.pareto.io/api/v1/files', 'https://tess.pareto.io/api'],
		['http://localhost:5678/api/workspaces/usage', 'http://localhost:5678/api'],
	])('%s: the likely address is %s', (url, expected) => {
		expect(likelyBaseUrl(url)).toBe(expected);
	});

	it('a path the platform may have (the older address, a proxy) is kept', () => {
		expect(likelyBaseUrl('https://tess.pareto.io/api')).toBeUndefined();
		expect(likelyBaseUrl('https://proxy.example.com/tess')).toBeUndefined();
	});
});

describe('a Base URL with a typo', () => {
	it.each([
		['htps://api.tess.im', 'https://api.tess.im'],
		['https//api.tess.im', 'https://api.tess.im'],
		['https:/api.tess.im', 'https://api.tess.im'],
		['https:://api.tess.im', 'https://api.tess.im'],
		['://api.tess.im', 'https://api.tess.im'],
		['//api.tess.im/v1', 'https://api.tess.im'],
	])('%s: the hint is %s', (raw, expected) => {
		expect(problemOf(raw)).toBe(
			`The Base URL "${raw}" must start with https:// (or http://): try ${expected}`,
		);
	});

	it('an address with a space gets the production address as its example', () => {
		expect(problemOf('api tess.im')).toBe(
			'The Base URL "api tess.im" must start with https:// (or http://), e.g. https://api.tess.im',
		);
	});

	it('an address that is fine has no other likely address', () => {
		expect(likelyBaseUrl('https://api.tess.im')).toBeUndefined();
		expect(checkBaseUrl(' https://api.tess.im/ ')).toEqual({ url: 'https://api.tess.im' });
	});
});
