import type {
	Icon,
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

export class AgentPlatformApi implements ICredentialType {
	name = 'agentPlatformApi';

	displayName = 'Agent Platform API';

	icon: Icon = {
		light: 'file:../nodes/AgentPlatform/agentPlatform.svg',
		dark: 'file:../nodes/AgentPlatform/agentPlatform.dark.svg',
	};

	// a page of the repository, without an anchor (n8n appends its query to a Docs link)
	documentationUrl =
		'https://github.com/agent-platform/n8n-nodes-agent-platform/blob/main/docs/credentials.md';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: 'https://api.tess.im',
			required: true,
			placeholder: 'https://api.tess.im',
			description:
				'The address of the Agent Platform API. Keep the default for the production platform; change it only for another address (the older one, a proxy, or the local emulator). A trailing slash is fine.',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'The API key from your Agent Platform account settings',
		},
		{
			displayName: 'Workspace ID',
			name: 'workspaceId',
			type: 'string',
			default: '',
			required: true,
			placeholder: '1234',
			description:
				'The numeric ID of the workspace to work in. The platform requires it on every request.',
		},
		{
			displayName: 'Requests per Second',
			name: 'requestsPerSecond',
			type: 'number',
			typeOptions: { minValue: 0.01, numberPrecision: 2 },
			default: 1,
			description:
				'The most requests a second this n8n process sends with this API key, shared by every workflow that uses it: a ceiling. Once the platform refuses a request, the node keeps to the rate the platform lets through (about 1 a second), also with several queue-mode processes on one key.',
		},
	];

	// Every request carries the key and the workspace; the platform answers 422 without the workspace.
	// A function rather than n8n's declarative headers: those are two expressions that n8n resolves
	// again for every request (about 2 ms each time, measured), and the key is pasted by hand, so
	// stray spaces around it are dropped.
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		requestOptions.headers = {
			...(requestOptions.headers ?? {}),
			Authorization: `Bearer ${String(credentials.apiKey ?? '').trim()}`,
			'x-workspace-id': String(credentials.workspaceId ?? '').trim(),
		};
		return requestOptions;
	}

	// The Test button is the nodes' credentialTest (testedBy): it can put every failure into words,
	// network ones included, on n8n 1.x and 2.x.
}
