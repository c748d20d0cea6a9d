/**
 * The names every part of the test and development tooling shares: the package, its node and
 * credential types, and the development platform and sign-in that `npm start` and
 * `npm run screenshots` use.
 */
/** The credential type's name (credentials/AgentPlatformApi.credentials.ts). */
export const CREDENTIAL_TYPE = 'agentPlatformApi';

/** The package's name: n8n prefixes a community node's type with it. */
export const PACKAGE_NAME = 'n8n-nodes-agent-platform';

/** Node types of the package once n8n loads it as a community package. */
export const NODE_TYPES = {
	action: `${PACKAGE_NAME}.agentPlatform`,
	trigger: `${PACKAGE_NAME}.agentPlatformTrigger`,
} as const;

/** The emulator's key and workspace for `npm start` and the screenshots. */
export const DEV_PLATFORM = { apiKey: 'dev-api-key', workspaceId: '42' } as const;

/** The n8n owner account `npm start` creates and prints, and the screenshots sign in with. */
export const DEV_SIGN_IN = {
	email: 'admin@example.com',
	password: 'AgentPlatform1',
	firstName: 'Dev',
	lastName: 'Owner',
} as const;
