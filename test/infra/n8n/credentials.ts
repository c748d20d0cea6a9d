/**
 * The names a test run uses: the package's node types, the credential a run holds (credentialsFor)
 * and the resource-locator values its parameters name records with (byId, fromList); and the
 * credential store n8n's engine reads (HarnessCredentialsHelper: plain test credentials instead of
 * encrypted ones in a database).
 */
import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeProperties,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { ICredentialsHelper, isExpression, Workflow } from 'n8n-workflow';
import { AgentPlatformApi } from '../../../credentials/AgentPlatformApi.credentials';
import { NODE_TYPES, PACKAGE_NAME } from '../../../dev/constants';

export { PACKAGE_NAME };
export const AGENT_PLATFORM_NODE_TYPE = NODE_TYPES.action;
export const SOURCE_NODE_TYPE = 'harness.items';
export const SOURCE_NODE_NAME = 'Items';
export const NODE_UNDER_TEST_NAME = 'Agent Platform';

export interface HarnessCredentials {
	baseUrl: string;
	apiKey: string;
	workspaceId: string;
	requestsPerSecond?: number;
}

/**
 * Requests per Second of the test credentials unless a test sets its own: high enough that the
 * pace (transport/pace/) never slows a test that is not about rate limits.
 */
export const UNPACED_REQUESTS_PER_SECOND = 1000;

/** The credentials of an emulator or any `{ url, apiKey, workspaceId }` server. */
export function credentialsFor(
	server: { url: string; apiKey: string; workspaceId: string | number },
	requestsPerSecond = UNPACED_REQUESTS_PER_SECOND,
): HarnessCredentials {
	return {
		baseUrl: server.url,
		apiKey: server.apiKey,
		workspaceId: String(server.workspaceId),
		requestsPerSecond,
	};
}

/** A resource locator's value as n8n's editor stores it: an ID typed in, or an entry picked from the list. */
export const byId = (value: string | number) => ({ __rl: true, mode: 'id', value: String(value) });
export const fromList = (value: string | number) => ({
	__rl: true,
	mode: 'list',
	value: String(value),
	cachedResultName: 'x',
});

const credentialTypes: Record<string, ICredentialType> = {
	agentPlatformApi: new AgentPlatformApi(),
};

/**
 * n8n's credentials store, reduced to what a run uses: it hands out the test credentials
 * (getDecrypted) and applies the credential type's `authenticate`, resolving generic auth's
 * `={{$credentials.x}}` with n8n-workflow's own expression engine exactly as n8n's CLI does.
 */
export class HarnessCredentialsHelper extends ICredentialsHelper {
	/** getDecrypted calls: in n8n each is a database lookup and a decryption. */
	reads = 0;

	constructor(private readonly credentials: Record<string, ICredentialDataDecryptedObject>) {
		super();
	}

	getParentTypes(): string[] {
		return []; // none of ours extends oAuth2Api / oAuth1Api
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = this.credentialType(typeName);
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions as IHttpRequestOptions);
		}
		if (authenticate?.type === 'generic') {
			if (!workflow || !node)
				throw new Error('Generic credential authentication needs the workflow and node');
			const resolve = (value: string) =>
				isExpression(value)
					? String(
							workflow.expression.getSimpleParameterValue(
								node,
								value,
								'internal',
								{ $credentials: credentials },
								undefined,
								'',
							) ?? '',
						)
					: value;
			for (const [where, entries] of Object.entries(authenticate.properties)) {
				const target = requestOptions as unknown as Record<
					string,
					Record<string, unknown> | undefined
				>;
				target[where] ??= {};
				for (const [key, value] of Object.entries(entries as Record<string, string>)) {
					target[where]![resolve(key)] = resolve(value);
				}
			}
		}
		return requestOptions as IHttpRequestOptions;
	}

	async preAuthentication(
		_helpers: IHttpRequestHelper,
		_credentials: ICredentialDataDecryptedObject,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined; // no expirable token in our credential
	}

	async runPreAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async getCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentials> {
		throw new Error(`The harness keeps no encrypted credentials (${type} ${nodeCredentials.name})`);
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const credentials = this.credentials[type];
		if (!credentials) throw new Error(`No test credentials of type ${type}`);
		this.reads++;
		return { ...credentials };
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.credentialType(type).properties;
	}

	private credentialType(name: string): ICredentialType {
		const type = credentialTypes[name];
		if (!type) throw new Error(`Unknown credential type ${name}`);
		return type;
	}
}
