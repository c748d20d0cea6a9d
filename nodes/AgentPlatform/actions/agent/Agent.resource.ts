import type { INodeProperties } from 'n8n-workflow';

import * as chatCompletion from './chatCompletion.operation';
import * as execute from './execute.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';

export { chatCompletion, execute, get, getAll };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['agent'] } },
		description: 'What to do with an agent',
		options: [
			{
				name: 'Chat Completion',
				value: 'chatCompletion',
				description:
					"Send messages to a chat agent through its OpenAI-compatible endpoint: the chat's answer only, no run record (no files, answers or session). For most chats, Execute is the one to pick.",
				action: 'Chat with an agent',
			},
			{
				name: 'Execute',
				value: 'execute',
				description:
					'Run any agent (chat, text, image, video) with its answers, messages and files; wait for it, start it, or stream it. The one to pick for a chat behind a Chat Trigger.',
				action: 'Execute an agent',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get an agent, with the questions it accepts',
				action: 'Get an agent',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List agents, optionally filtered by text or type',
				action: 'Get many agents',
			},
		],
		default: 'execute',
	},
	...execute.description,
	...chatCompletion.description,
	...get.description,
	...getAll.description,
];
