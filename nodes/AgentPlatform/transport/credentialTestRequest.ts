/**
 * The credential test's one request, `GET /agents?per_page=1`. A credential test gets only n8n's
 * legacy `request` helper (there is no httpRequest, and no credential to authenticate with by
 * type), so the credential's own authentication is applied to the request here, and it is sent
 * once, outside the pace: it tests the settings, it does not spend the key's budget on retries.
 */
import type {
	ICredentialDataDecryptedObject,
	ICredentialTestFunctions,
	IDataObject,
	IHttpRequestOptions,
} from 'n8n-workflow';

import { AgentPlatformApi } from '../../../credentials/AgentPlatformApi.credentials';

export interface TestAnswer {
	statusCode: number;
	body: unknown;
	headers?: Record<string, unknown>;
}

/** The answer to the test request; throws what n8n's helper throws when nothing answered. */
export async function sendCredentialTest(
	ctx: ICredentialTestFunctions,
	data: ICredentialDataDecryptedObject,
	baseUrl: string,
	timeoutMs: number,
): Promise<TestAnswer> {
	const options: IHttpRequestOptions = { url: `${baseUrl}/agents`, method: 'GET', headers: {} };
	await new AgentPlatformApi().authenticate(data, options);
	return (await ctx.helpers.request({
		method: 'GET',
		uri: options.url,
		qs: { per_page: 1 },
		headers: { Accept: 'application/json', ...(options.headers as IDataObject) },
		json: true,
		simple: false,
		resolveWithFullResponse: true,
		followRedirect: false,
		timeout: timeoutMs,
	})) as TestAnswer;
}
