/** The parameters of Agent → Execute. */
import type { INodeProperties } from 'n8n-workflow';

import { MAX_ATTACHMENTS } from '../../helpers/agents/definitions';
import {
	EXECUTE_ROLES,
	MESSAGE_FROM_CHAT,
	MESSAGE_FROM_CHAT_OR_BELOW,
} from '../../helpers/agents/messages';
import {
	agentLocator,
	chatSettingsProperties,
	historyJsonOption,
	historyProperty,
	idleTimeoutProperty,
	platformNotice,
	timeoutProperty,
} from '../common.descriptions';
import { downloadGeneratedFilesProperty } from '../generatedFiles.descriptions';
import { structuredOutputProperties } from '../structuredOutput.descriptions';
import { memoryCollectionsProperty } from './memoryCollections';
import { messageProperties } from './messageSource';

export const executeProperties: INodeProperties[] = [
	agentLocator,
	{
		displayName: 'Response Mode',
		name: 'responseMode',
		type: 'options',
		default: 'wait',
		description: "How to get the agent's answer",
		// measured in the editors' chat panels (test/e2e/editor-chat.e2e.test.ts)
		hint: "In n8n's chat, the answer appears as it is written with Stream and a Chat Trigger whose Response Mode option is Streaming (the editor's chat panel does so from n8n 2.x on); otherwise when the run ends",
		options: [
			{
				name: 'Wait for Completion',
				value: 'wait',
				description:
					"Start the run and wait for it: the platform waits up to 100 s before answering, so a shorter run costs one request; a longer one is then polled until it finishes or the node's timeout passes. A gateway timeout cannot lose the run or make it run twice.",
			},
			{
				name: 'Start Only',
				value: 'start',
				description:
					'Start the run and return its ID at once; fetch the result later with Agent Response → Get',
			},
			{
				name: 'Stream',
				value: 'stream',
				description:
					'Read the answer as it is written. In a workflow started by a Chat Trigger or a Webhook in streaming mode, the text is passed on to the caller as it comes. The platform streams chat agents only: the run of another agent is waited for, and its answer passed on in one piece when it ends.',
			},
		],
	},
	...messageProperties,
	// n8n writes a tool's automatic description from the operation alone, and an expression there
	// cannot reach the agent's title (docs/chat-model.md, "The tool's description"): the form says so.
	{
		...platformNotice(
			'toolDescriptionNotice',
			'The AI Agent\'s model sees this tool as "Chat with or run an agent in Agent Platform", without the agent\'s name: with more than one platform agent as tools, set Tool Description to Set Manually and say what this agent does',
		),
		displayOptions: { show: { '@tool': [true] } },
	},
	historyProperty(
		EXECUTE_ROLES,
		'Earlier messages of the conversation, oldest first, sent before the Message above (to chat agents only, as the Message). A System message is sent as the Developer message the platform takes (only as the first message); several at the start are joined into one, and turns of one role in a row are joined with a blank line.',
	),
	...chatSettingsProperties,
	{
		// n8n's checks want a dynamic dropdown named "… Name or ID"; it lists the answers by name
		displayName: 'Answer Name or ID',
		name: 'answerDescriptions',
		type: 'options',
		typeOptions: {
			loadOptionsMethod: 'getAnswerDescriptions',
			loadOptionsDependsOn: ['agentId.value'],
		},
		// only for reading: n8n's answer fields show no description, a dropdown's options do. A pick
		// is never used, and one left from another agent says so (methods/resourceMapping.ts).
		allowArbitraryValues: true,
		default: '',
		placeholder: 'Open to read what each answer below asks',
		// n8n's checks want its standard words for a dynamic dropdown; what this one is for is said
		// once, in the hint under it
		description:
			'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
		hint: "What each answer below asks, in the platform's words, and whether it is required. Only for reading: a pick is not sent.",
	},
	{
		displayName: 'Answers',
		name: 'answers',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		description:
			"The picked agent's other questions, answered field by field; those marked * need an answer (none shown: no agent picked yet, or it asks no other questions)",
		typeOptions: {
			loadOptionsDependsOn: ['agentId.value'],
			resourceMapper: {
				resourceMapperMethod: 'getAnswerFields',
				// 'map' (as n8n's Execute Workflow): in 'add' n8n requires the saved list's fields, maybe
				// another agent's; the run checks the given agent's own (docs/design.md)
				mode: 'map',
				valuesLabel: 'Answers',
				fieldWords: { singular: 'answer', plural: 'answers' },
				addAllFields: true,
				multiKeyMatch: false,
				supportAutoMap: false,
			},
		},
	},
	...structuredOutputProperties({ responseMode: ['wait'] }),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		description:
			'More settings of the run: answers as JSON, files to attach, the session to continue, the output and how long to wait',
		options: [
			{
				displayName: 'Answers (JSON)',
				name: 'answersJson',
				type: 'json',
				default: '{}',
				placeholder: '{"tone": "formal"}',
				description:
					'Answers as one JSON object, e.g. {"style": "formal"}. They take precedence over the fields above.',
			},
			{
				displayName: 'Attach Chat Files',
				name: 'attachChatFiles',
				type: 'boolean',
				default: true,
				displayOptions: {
					show: {
						'@version': [{ _cnd: { gte: 1.3 } }],
						'/messageSource': [MESSAGE_FROM_CHAT, MESSAGE_FROM_CHAT_OR_BELOW],
					},
				},
				description:
					"Whether the files of the chat message (the Chat Trigger's binaries data0, data1, …) are uploaded and attached to the run when Attach Input Binaries is empty. Processed first, as Process Attachments First says.",
			},
			{
				displayName: 'Attach Input Binaries',
				name: 'binaryProperties',
				type: 'string',
				default: '',
				placeholder: 'e.g. data, attachment',
				description: `Binary properties of the input item to upload (streamed) and attach, separated by commas; each must be in the item. Together with the File IDs at most ${MAX_ATTACHMENTS} files, each at most 200 MB. Empty: under a Chat Trigger (node version 1.3 on), the chat message's files, if any.`,
			},
			{
				displayName: 'Continue Session (Root ID)',
				name: 'rootId',
				type: 'string',
				default: '',
				placeholder: 'e.g. {{ $json.root_id }}',
				description:
					'The root_id of an earlier run, to continue that conversation. Every output carries root_id. In a chat, a Memory connected to the node keeps the conversation per session; a value here wins over it.',
			},
			{
				displayName: 'File IDs',
				name: 'fileIds',
				type: 'string',
				default: '',
				placeholder: 'e.g. 12, 15',
				description: `IDs of uploaded files to attach, separated by commas (at most ${MAX_ATTACHMENTS})`,
			},
			// Start Only returns before the run has made any file; a saved value is kept, only hidden.
			{
				...downloadGeneratedFilesProperty,
				displayOptions: { hide: { '/responseMode': ['start'] } },
			},
			{
				...historyJsonOption,
				description:
					"Earlier messages as a JSON array of {role, content}, e.g. from an expression or an AI Agent's memory. Sent before the History and Message above; a system message becomes the leading developer message, as the History says.",
			},
			memoryCollectionsProperty,
			{
				displayName: 'Include Full Response',
				name: 'fullResponse',
				type: 'boolean',
				default: false,
				description:
					"Whether to return the platform's whole response instead of the simplified item",
			},
			{
				displayName: 'Process Attachments First',
				name: 'processAttachments',
				type: 'boolean',
				default: true,
				description:
					'Whether the platform processes each attached input binary before the run, and the node waits for it, so the agent can read it (processing spends credits). Off: the files are only uploaded and attached.',
			},
			idleTimeoutProperty(
				'In Stream mode, a stream silent for this long is given up and the run is polled instead',
			),
			timeoutProperty(
				'How long to wait for the run to finish before giving up (it keeps running on the platform)',
			),
		],
	},
];
