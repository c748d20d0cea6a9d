/** What the tests split from execute-real-platform.test.ts share: set-up (its hooks run in each file that imports this), helpers and fixtures. */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import type { PlatformEmulator, StoredAgent } from '../../../dev/emulator';
import { byId } from '../../infra/n8n/credentials';
import { useEmulator } from '../../infra/useEmulator';
import { CHAT_AGENT as CHAT } from '../../../dev/emulator';

export let emu: PlatformEmulator;
export { CHAT };
export const FORM = 900; // an agent added below, with the question types of public clients

useEmulator({ timeScale: 100, executionSeconds: 5, quiet: true }, (started) => (emu = started));
beforeAll(() => {
	const template = emu.state.agents.get(3)!;
	const agent: StoredAgent = {
		...template,
		id: FORM,
		title: 'Form Agent',
		fileIds: [],
		questions: [
			{ type: 'textarea', name: 'brief', description: 'What to write', required: true },
			{
				type: 'select',
				name: 'tone',
				description: 'Tone',
				required: true,
				options: ['Formal tone:formal', 'Casual tone:casual'],
			},
			{
				type: 'select',
				name: 'length',
				description: 'Length',
				required: true,
				options: [
					{ label: 'Short', value: 's' },
					{ label: 'Long', value: 'l' },
				],
			},
			{
				type: 'multiselect',
				name: 'channels',
				description: 'Where to post',
				required: false,
				options: ['email', 'chat', 'sms'],
			},
			{ type: 'file', name: 'logo', description: 'A logo', required: false },
			{
				type: 'select',
				name: 'language',
				description: 'Language',
				required: true,
				options: ['en', 'pt'],
				default: 'en',
			},
		],
	};
	emu.state.agents.set(FORM, agent);
});

export const posts = () => emu.requests.filter((r) => r.method === 'POST');

export function execute(extra: INodeParameters = {}, agentId = CHAT): INodeParameters {
	return {
		resource: 'agent',
		operation: 'execute',
		agentId: byId(agentId),
		...(agentId === CHAT ? { message: 'Hello there' } : {}),
		...extra,
	};
}

export const formAnswers = (value: IDataObject) =>
	({ answers: { mappingMode: 'defineBelow', value } }) as unknown as INodeParameters;
