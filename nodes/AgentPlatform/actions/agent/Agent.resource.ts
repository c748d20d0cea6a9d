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
		// Execute first: the chat with the agent itself. The values stay (saved workflows hold them).
		options: [
			{
				name: 'Execute',
				value: 'execute',
				description:
					'Chat with the agent or run it, with its own tools, knowledge and files: any agent (chat, text, image, video), with its answers, messages and files; wait for it, start it, or stream it. The one for a chat behind a Chat Trigger: connect a Memory to keep the conversation.',
				action: 'Chat with or run an agent',
			},
			{
				name: 'Chat Completion (OpenAI-Style)',
				value: 'chatCompletion',
				description:
					"An OpenAI-style completion of the messages sent, through the chat agent's OpenAI-compatible endpoint: the answer only, no run record (no files, answers or session on the platform). A Memory's window is sent as the earlier messages.",
				action: 'Get a chat completion of the messages sent',
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
