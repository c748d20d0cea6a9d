/** Rows of the bad-input table (docs/bad-input.md): uploads, attachments, chat history and messages, the answers checked against the agent's form, the session to continue. */
import { binaryItem } from '../../infra/n8n/runNode';
import {
	CHAT,
	execute,
	textAnswers,
	completion,
	upload,
	Row,
	oversizeItem,
} from './bad-input.shared';

export const BAD_INPUT_INPUTS: Row[] = [
	{
		parameter: 'Input Binary Field (File → Upload)',
		cases: [
			{
				bad: 'the item has no such binary property',
				parameters: () => upload({ binaryPropertyName: 'file' }),
				items: () => [binaryItem(Buffer.from('x'), { fileName: 'x.txt' })],
				message: 'The item has no binary property "file" (item 1)',
			},
			{
				bad: 'empty',
				parameters: () => upload({ binaryPropertyName: ' ' }),
				items: () => [binaryItem(Buffer.from('x'), { fileName: 'x.txt' })],
				message: 'The Input Binary Field is empty (item 1)',
			},
		],
	},
	{
		parameter: 'the file to upload (File → Upload, Agent → Execute)',
		cases: [
			{
				bad: 'an extension the platform refuses',
				parameters: () => upload(),
				items: () => [binaryItem(Buffer.from('MZ'), { fileName: 'setup.exe' })],
				message:
					'The platform does not accept .exe files: "setup.exe" cannot be uploaded (binary property "data", item 1)',
			},
			{
				bad: 'no extension',
				parameters: () => upload(),
				items: () => [binaryItem(Buffer.from('all:'), { fileName: 'Makefile' })],
				message:
					'The file name "Makefile" has no extension, so the platform would refuse it (binary property "data", item 1)',
			},
			{
				bad: "over 200 MB, from its size in n8n's binary store",
				parameters: () => upload(),
				items: oversizeItem,
				message:
					'The file "huge.mp4" is 200.1 MB: the platform accepts at most 200 MB per file (binary property "data", item 1)',
			},
			{
				bad: 'an input binary of Agent → Execute with a refused extension',
				parameters: () =>
					execute({
						...textAnswers({ topic: 't', tone: 'formal' }),
						options: { binaryProperties: 'data' },
					}),
				items: () => [binaryItem(Buffer.from('MZ'), { fileName: 'tool.exe' })],
				message:
					'The platform does not accept .exe files: "tool.exe" cannot be uploaded (binary property "data", item 1)',
			},
		],
	},
	{
		parameter: 'File IDs, Attach Input Binaries (Agent → Execute)',
		cases: [
			{
				bad: 'a file ID that is not a number',
				parameters: () => execute({ options: { fileIds: '12, x7' } }),
				message: 'The file ID "x7" is not a number (item 1)',
			},
			{
				bad: 'more than 5 files, IDs and binaries together',
				parameters: () =>
					execute({ options: { fileIds: '1,2,3,4', binaryProperties: 'data, other' } }),
				items: () => [binaryItem(Buffer.from('x'), { fileName: 'a.txt' })],
				message: '6 files are attached, but the platform takes at most 5 per run (item 1)',
			},
		],
	},
	{
		parameter: 'History, History (JSON) (Agent → Execute, Chat Completion)',
		cases: [
			{
				bad: 'not JSON',
				parameters: () => execute({ options: { historyJson: '[{"role":' } }, CHAT),
				message: 'History (JSON) is not valid JSON (item 1)',
			},
			{
				bad: 'not an array',
				parameters: () => execute({ options: { historyJson: '{"role":"user"}' } }, CHAT),
				message: 'History (JSON) must be an array of messages (item 1)',
			},
			{
				bad: 'an unknown role',
				parameters: () =>
					execute({ options: { historyJson: '[{"role":"robot","content":"beep"}]' } }, CHAT),
				message: 'Message 1 of History (JSON) has the role "robot" (item 1)',
			},
			{
				bad: 'a message without text',
				parameters: () =>
					execute(
						{
							history: { messages: [{ role: 'user', content: 'hi' }] },
							options: { historyJson: '[{"role":"user","content":7}]' },
						},
						CHAT,
					),
				message: 'Message 1 of History (JSON) has no text content (item 1)',
			},
			{
				bad: 'the developer role, on Chat Completion (that endpoint does not take it)',
				parameters: () =>
					completion({ options: { historyJson: '[{"role":"developer","content":"x"}]' } }),
				message: 'Message 1 of History (JSON) has the role "developer" (item 1)',
			},
		],
	},
	{
		parameter: 'Message (Chat Completion)',
		cases: [
			{
				bad: 'no message and no history',
				parameters: () => completion({ message: '' }),
				message: 'Give a Message or a History to send (item 1)',
			},
		],
	},
	{
		parameter: "Answers, Answers (JSON), Model, Tools, Temperature (against the agent's form)",
		cases: [
			{
				bad: 'a required question unanswered',
				parameters: () => execute(textAnswers({ tone: 'formal' })),
				message: 'The agent "Text Summarizer" needs an answer to "Topic" (topic) (item 1)',
				sends: 'the agent form',
			},
			{
				bad: 'a select answer the agent does not offer',
				parameters: () => execute(textAnswers({ topic: 't', tone: 'angry' })),
				message:
					'"angry" is not one of the options of "Tone" (tone) for the agent "Text Summarizer" (item 1)',
				sends: 'the agent form',
			},
			{
				bad: 'a number question answered with text',
				parameters: () => execute(textAnswers({ topic: 't', tone: 'formal', max_words: 'many' })),
				message: 'The answer to "Max Words" (max_words) must be a number, not "many" (item 1)',
				sends: 'the agent form',
			},
			{
				bad: 'an array question answered with a non-array',
				parameters: () =>
					execute({
						...textAnswers({ topic: 't', tone: 'formal' }),
						options: { answersJson: '{"keywords": "river"}' },
					}),
				message: 'The answer to "Keywords" (keywords) must be a JSON array (item 1)',
				sends: 'the agent form',
			},
			{
				bad: 'Answers (JSON) not JSON',
				parameters: () =>
					execute({
						...textAnswers({ topic: 't', tone: 'formal' }),
						options: { answersJson: '{topic:' },
					}),
				message: 'Answers (JSON) is not valid JSON (item 1)',
			},
			{
				bad: 'Answers (JSON) not an object',
				parameters: () =>
					execute({
						...textAnswers({ topic: 't', tone: 'formal' }),
						options: { answersJson: '[1]' },
					}),
				message: 'Answers (JSON) must be a JSON object (item 1)',
			},
			{
				bad: 'a model the agent does not offer',
				parameters: () => completion({ model: 'not-a-model' }),
				message:
					'"not-a-model" is not one of the options of "Model" (model) for the agent "Chat Assistant" (item 1)',
				sends: 'the agent form',
			},
			{
				bad: 'a chat agent without a message',
				parameters: () => execute({ message: '' }, CHAT),
				message: 'The agent "Chat Assistant" is a chat agent: give a Message or a History (item 1)',
				sends: 'the agent form',
			},
		],
	},
	{
		parameter: 'Continue Session (Root ID) (Agent → Execute)',
		cases: [
			{
				bad: 'not a number',
				parameters: () => execute({ options: { rootId: 'abc' } }, CHAT),
				message: 'The root_id "abc" is not a number (item 1)',
			},
		],
	},
];
