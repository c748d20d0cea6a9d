import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { completionText } from '../../helpers/runs/chatCompletions';
import type { Answer, JsonRequest } from '../../helpers/output/structuredOutput';
import { answerAsJson } from '../../helpers/output/structuredOutput';

function answerOf(completion: IDataObject): Answer {
	const content = completionText(completion);
	return { text: content, record: { ...completion, content } };
}

/**
 * Chat Completion with output format JSON: the endpoint keeps no session, so a correction sends
 * the conversation again with the rejected answer and the correction appended.
 */
export async function jsonCompletionOutput(
	ctx: IExecuteFunctions,
	options: {
		request: JsonRequest;
		body: IDataObject;
		first: IDataObject;
		send: (body: IDataObject) => Promise<IDataObject>;
		itemIndex: number;
	},
): Promise<IDataObject> {
	let messages = options.body.messages as IDataObject[];
	const correct = async (message: string, previous: Answer): Promise<Answer> => {
		messages = [
			...messages,
			{ role: 'assistant', content: previous.text },
			{ role: 'user', content: message },
		];
		return answerOf(await options.send({ ...options.body, messages }));
	};
	return await answerAsJson(
		ctx,
		options.request,
		answerOf(options.first),
		correct,
		options.itemIndex,
	);
}
