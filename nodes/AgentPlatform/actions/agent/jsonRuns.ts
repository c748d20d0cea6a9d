import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { Answer, JsonRequest } from '../../helpers/output/structuredOutput';
import { answerAsJson, withJsonInstruction } from '../../helpers/output/structuredOutput';

type Messages = Array<{ role: string; content: string }>;

/** Adds the JSON instruction to the run's messages (sent both in `answers` and at the top level). */
export function askForJson(body: IDataObject, request: JsonRequest): void {
	const answers = (body.answers ?? {}) as IDataObject;
	const messages = withJsonInstruction(
		(answers.messages ?? body.messages ?? []) as Messages,
		request.schema,
	);
	answers.messages = messages;
	body.answers = answers;
	body.messages = messages;
}

function answerOf(record: IDataObject, simplify: (run: IDataObject) => IDataObject): Answer {
	return {
		text: String(record.output ?? ''),
		credits: Number(record.credits ?? 0) || 0,
		record: simplify(record),
	};
}

/**
 * Execute with output format JSON: validates the finished run's answer and asks for corrections
 * as new runs of the same session (root_id), each with only the correction as its message; files
 * are attached to the first run only.
 */
export async function jsonRunOutput(
	this: IExecuteFunctions,
	options: {
		request: JsonRequest;
		body: IDataObject;
		first: IDataObject;
		run: (body: IDataObject) => Promise<IDataObject>;
		simplify: (run: IDataObject) => IDataObject;
		itemIndex: number;
	},
): Promise<IDataObject> {
	const { body, simplify } = options;
	const { file_ids: _attached, ...rest } = body;
	const correct = async (message: string, previous: Answer): Promise<Answer> => {
		const fields: IDataObject = {
			...((body.answers ?? {}) as IDataObject),
			messages: [{ role: 'user', content: message }],
			root_id: Number(previous.record.root_id ?? previous.record.id),
		};
		return answerOf(await options.run({ ...rest, answers: fields, ...fields }), simplify);
	};
	return await answerAsJson.call(
		this,
		options.request,
		answerOf(options.first, simplify),
		correct,
		options.itemIndex,
	);
}
