/** What the tests split from execute.test.ts share: set-up (its hooks run in each file that imports this), helpers and fixtures. */
import type { INodeParameters } from 'n8n-workflow';
import type { PlatformEmulator } from '../../../dev/emulator';
import { byId } from '../../infra/n8n/credentials';
import { useEmulator } from '../../infra/useEmulator';
import { CHAT_AGENT as CHAT, TEXT_AGENT as TEXT } from '../../../dev/emulator';

export let emu: PlatformEmulator;
export { CHAT, TEXT };
export const FAILS = 5; // seeded agent whose runs fail

// 100 virtual seconds per real second: the platform's 100 s wait lasts one real second.

useEmulator({ timeScale: 100, executionSeconds: 50, quiet: true }, (started) => (emu = started));

export const chatSettings = (agentId = CHAT) => emu.firstOptions(agentId);

export function execute(extra: INodeParameters = {}, agentId = CHAT): INodeParameters {
	return {
		resource: 'agent',
		operation: 'execute',
		agentId: byId(agentId),
		...(agentId === CHAT ? { message: 'Hello there, agent', ...chatSettings(agentId) } : {}),
		...extra,
	};
}

export const posts = () => emu.requests.filter((r) => r.method === 'POST');
export const polls = () =>
	emu.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/agent-responses/'));
