/**
 * Where Agent → Execute's user message comes from (Message Source, Message) and the chat's notices
 * under it, per node version:
 * - 1 and 1.1: a Message field, empty by default;
 * - 1.2 and 1.3: Message Source, by default "Connected Chat Trigger Node" (the item's chatInput,
 *   required for a chat agent), or Define Below;
 * - 1.4 on: by default "Chat Message, Else Message Below": the chat's message where the item has
 *   one, the Message below otherwise (after a Manual Trigger, a Webhook, any other node), so that a
 *   first run works where it starts. A text, image or video agent needs no message in any version.
 * In tool mode (1.2 on) the AI Agent's model writes the Message.
 */
import type { INodeProperties } from 'n8n-workflow';

import { MESSAGE_FROM_CHAT, MESSAGE_FROM_CHAT_OR_BELOW } from '../../helpers/agents/messages';
import { platformNotice } from '../common.descriptions';

type Show = NonNullable<NonNullable<INodeProperties['displayOptions']>['show']>;

const FROM_1_2 = [{ _cnd: { gte: 1.2 } }];
const FROM_1_4 = [{ _cnd: { gte: 1.4 } }];

/** Message, for the node versions and modes `show` names, with its default and what it says of it. */
function messageProperty(defaultValue: string, show: Show, defaultWords = ''): INodeProperties {
	return {
		displayName: 'Message',
		name: 'message',
		type: 'string',
		typeOptions: { rows: 3 },
		default: defaultValue,
		displayOptions: { show },
		placeholder: 'e.g. Summarise this report in three bullet points',
		description:
			'The user message to send to a chat agent. Leave empty to send only the history below.',
		// n8n gives a text field no per-agent words, so the rule is said under it
		hint: `${defaultWords}Sent only to chat agents (agents that ask for messages): for a text, image or video agent it is not sent`,
	};
}

const chatTriggerOption = {
	name: 'Connected Chat Trigger Node',
	value: MESSAGE_FROM_CHAT,
	description:
		"The chat's message: the chatInput field of the item, as n8n's Chat Trigger sends it. A chat agent's run fails on an item without one.",
};
const defineOption = {
	name: 'Define Below',
	value: 'define',
	description: 'A message typed or mapped below',
};

function messageSource(
	defaultValue: string,
	version: Show['@version'],
	options: INodeProperties['options'],
) {
	return {
		displayName: 'Message Source',
		name: 'messageSource',
		type: 'options',
		default: defaultValue,
		displayOptions: { show: { '@version': version, '@tool': [false] } },
		description: 'Where the user message sent to a chat agent comes from',
		options,
	} satisfies INodeProperties;
}

export const messageProperties: INodeProperties[] = [
	messageProperty('', { '@version': [1, 1.1] }),
	// 1.2 and 1.3 (saved workflows): the chat's message by default. Read at run time, not through a
	// default `{{ $json.chatInput }}`: an expression the editor cannot resolve before a first run
	// stops it from reloading the agent's choices (Model, Tools) after a pick.
	messageSource(MESSAGE_FROM_CHAT, [1.2, 1.3], [chatTriggerOption, defineOption]),
	// 1.4: where the item comes from decides, so that a first run after a Manual Trigger works
	messageSource(MESSAGE_FROM_CHAT_OR_BELOW, FROM_1_4, [
		{
			name: 'Chat Message, Else Message Below',
			value: MESSAGE_FROM_CHAT_OR_BELOW,
			description:
				"The chat's message where the item has one (its chatInput field, as n8n's Chat Trigger sends it); otherwise the Message below, e.g. after a Manual Trigger or a Webhook",
		},
		chatTriggerOption,
		defineOption,
	]),
	// The form cannot see what is connected to an input or in front of the node
	// (docs/chat-memory.md, "Without a memory"): the chat's notices show where the form knows the
	// message is a chat's (Message Source "Connected Chat Trigger Node"); elsewhere a run under a
	// Chat Trigger says what a Memory changes in an execution hint.
	{
		...platformNotice(
			'chatMemoryNotice',
			"With a Memory (e.g. Simple Memory) connected to this node's Memory input, each session of n8n's chat continues one conversation with the agent; without one, each chat message starts a new conversation",
		),
		displayOptions: {
			show: { '@version': FROM_1_2, '@tool': [false], messageSource: [MESSAGE_FROM_CHAT] },
		},
	},
	// Node version 1.3: the chat message's files are attached (helpers/runs/executeRequest.ts)
	{
		...platformNotice(
			'chatFilesNotice',
			"Files sent with a chat message (the Chat Trigger's Allow File Uploads) are uploaded, processed and attached to the agent's run; a message without a file is sent as it is, and files without text go with a line naming them. Options → Attach Chat Files turns this off; Attach Input Binaries, where set, names the files to attach instead.",
		),
		displayOptions: {
			show: {
				'@version': [{ _cnd: { gte: 1.3 } }],
				'@tool': [false],
				messageSource: [MESSAGE_FROM_CHAT],
			},
		},
	},
	// Node version 1.2 (saved workflows): the chat's files are attached only where named
	{
		...platformNotice(
			'chatFilesNoticeV12',
			'This node (version 1.2) does not attach the files sent with a chat message: Options → Attach Input Binaries names the ones to attach (data0 for the first). A new Agent Platform node attaches them by itself.',
		),
		displayOptions: {
			show: { '@version': [1.2], '@tool': [false], messageSource: [MESSAGE_FROM_CHAT] },
		},
	},
	messageProperty('', { '@version': FROM_1_2, '@tool': [false], messageSource: ['define'] }),
	messageProperty(
		'',
		{ '@version': FROM_1_4, '@tool': [false], messageSource: [MESSAGE_FROM_CHAT_OR_BELOW] },
		"Sent where the item has no chat message (after a Manual Trigger, a Webhook, …); under a Chat Trigger the chat's message is sent instead. ",
	),
	messageProperty(
		"={{ $fromAI('message', 'The message to send to the agent: the question or request, in full', 'string') }}",
		{ '@version': FROM_1_2, '@tool': [true] },
		"Written by the AI Agent's model by default. ",
	),
];
