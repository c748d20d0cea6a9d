import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { cleanBaseUrl } from '../transport/baseUrl';
import { sendCredentialTest, type TestAnswer } from '../transport/credentialTestRequest';
import { platformMessage } from '../transport/errors';
import { errorCode } from '../transport/retryPolicy';

const TEST_TIMEOUT_MS = 15_000;

const KEY_REJECTED =
	'The platform rejected the API key. Check that it is copied whole (no spaces) and not revoked.';

/** The production platform's address (the credential's default). */
const PRODUCTION_URL = 'https://api.tess.im';

/** A scheme typed with a slip (`htps://`, `https//`, `https:/`, `https:://`), not a host:port. */
const MISTYPED_SCHEME = /^(?:[a-z]*:+(?!\d)\/*|[a-z]*\/\/+)/i;

/** Path segments after which the rest is an endpoint copied with the address (the API has no /v1). */
const ENDPOINT_TAIL =
	/\/(?:v\d+|agents|files|memories|memory-collections|webhooks|resource-templates|executions|workspaces?)(?:[/?#].*)?$/i;

/**
 * The address the Base URL most likely means, or undefined when nothing in it looks wrong: a
 * scheme added or mended (http:// for this machine, where the emulator listens, else https://) and
 * a copied endpoint path dropped. The platform's paths start at its root (docs/platform-assumptions.md).
 */
export function likelyBaseUrl(url: string): string | undefined {
	const scheme = /^https?:\/\//i.exec(url)?.[0].toLowerCase();
	const rest = scheme ? url.slice(scheme.length) : url.replace(MISTYPED_SCHEME, '');
	const host = rest.split(/[/?#]/)[0];
	if (!host || /\s/.test(host)) return undefined;
	const local = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/i.test(host);
	let path = rest.slice(host.length);
	while (ENDPOINT_TAIL.test(path)) path = path.replace(ENDPOINT_TAIL, '');
	const likely = `${scheme ?? (local ? 'http://' : 'https://')}${host}${path.replace(/\/+$/, '')}`;
	return likely === url ? undefined : likely;
}

/** The Base URL as typed, or words saying what is wrong with it (nothing is sent then). */
export function checkBaseUrl(raw: unknown): { url: string } | { problem: string } {
	const url = cleanBaseUrl(raw);
	if (!url)
		return { problem: 'The Base URL is empty. Enter the address of the Agent Platform API.' };
	if (!/^https?:\/\//i.test(url)) {
		const likely = likelyBaseUrl(url);
		return {
			problem:
				`The Base URL "${url}" must start with https:// (or http://)` +
				(likely ? `: try ${likely}` : `, e.g. ${PRODUCTION_URL}`),
		};
	}
	try {
		new URL(url);
	} catch {
		return { problem: `The Base URL "${url}" is not a web address. Check it for typos.` };
	}
	return { url };
}

/** What went wrong when nothing answered, in words (the code alone, e.g. ECONNREFUSED, says little). */
export function unreachableWords(error: unknown, url: string): string {
	const host = new URL(url).host;
	const code = errorCode(error);
	const text = error instanceof Error ? error.message : String(error);
	if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
		return `The address ${host} was not found. Check the Base URL for typos: the production platform is ${PRODUCTION_URL}.`;
	}
	if (code === 'ECONNREFUSED' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH') {
		return `Nothing answered at ${host}: check the Base URL, and that the platform is up and reachable from n8n.`;
	}
	if (code === 'ECONNABORTED' || code === 'ETIMEDOUT' || /timeout/i.test(text)) {
		return `The platform at ${host} did not answer within ${TEST_TIMEOUT_MS / 1000} seconds. Check the Base URL, or try again later.`;
	}
	if (code?.startsWith('ERR_TLS') || /certificate|ssl|tls/i.test(`${code ?? ''} ${text}`)) {
		return `The secure connection to ${host} failed (its certificate was not accepted). Check the Base URL.`;
	}
	return `The connection to ${host} broke before the platform answered. Check the Base URL, or try again later.`;
}

/** The platform's answer to the test request, in words. */
export function answerWords(answer: TestAnswer, url: string): INodeCredentialTestResult {
	const { statusCode: status, body } = answer;
	const said = platformMessage(body);
	const page = typeof body === 'string' && body.trim().startsWith('<');
	if (status >= 200 && status < 300) {
		if (page || typeof body !== 'object' || body === null) {
			return {
				status: 'Error',
				message: `Something other than the Agent Platform API answered at ${url}. Check the Base URL.`,
			};
		}
		return { status: 'OK', message: 'Connection successful' };
	}
	if (status === 401 || status === 403) return { status: 'Error', message: KEY_REJECTED };
	if (status === 422) {
		return {
			status: 'Error',
			message:
				"The API key works, but the platform refused the Workspace ID: it is missing or not one of this key's workspaces.",
		};
	}
	if (status === 404 || page) {
		const likely = likelyBaseUrl(url);
		return {
			status: 'Error',
			message:
				`A server answered at ${url}, but the Agent Platform API is not there (it has no ${url}/agents). ` +
				(likely
					? `Try ${likely}: the API's paths start at its address.`
					: `Check the Base URL: the production platform is ${PRODUCTION_URL}, with nothing after it.`),
		};
	}
	if (status === 429) {
		return {
			status: 'Error',
			message:
				'The platform is busy with this API key (too many requests). Wait a moment and test again.',
		};
	}
	if (status >= 500) {
		return {
			status: 'Error',
			message: `The platform had a problem on its side (HTTP ${status}). Try again later.`,
		};
	}
	return {
		status: 'Error',
		message: `The platform answered HTTP ${status}${said ? `: ${said}` : ''}`,
	};
}

/**
 * The credential's Test button, on n8n 1.x and 2.x alike: one page of agents, with every failure
 * in words (n8n's declarative test shows network codes such as ECONNREFUSED as they are).
 */
export async function testAgentPlatformApi(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = (credential.data ?? {}) as ICredentialDataDecryptedObject;
	const checked = checkBaseUrl(data.baseUrl);
	if ('problem' in checked) return { status: 'Error', message: checked.problem };
	if (!String(data.apiKey ?? '').trim())
		return { status: 'Error', message: 'The API key is empty.' };
	let answer: TestAnswer;
	try {
		answer = await sendCredentialTest(this, data, checked.url, TEST_TIMEOUT_MS);
	} catch (error) {
		return { status: 'Error', message: unreachableWords(error, checked.url) };
	}
	return answerWords(answer, checked.url);
}
