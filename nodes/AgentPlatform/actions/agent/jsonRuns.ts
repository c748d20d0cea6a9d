import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { Answer, JsonRequest } from '../../helpers/output/structuredOutput';
import { answerAsJson, withJsonInstruction } from '../../helpers/output/structuredOutput';
import { runBody, runExtras, runFields } from '../../helpers/runs/runBody';

type Messages = Array<{ role: string; content: string }>;

/** The run's body with the JSON instruction added to its messages. */
export function askForJson(body: IDataObject, request: JsonRequest): IDataObject {
	const fields = runFields(body);
	fields.messages = withJsonInstruction(
		(fields.messages ?? body.messages ?? []) as Messages,
		request.schema,
	) as unknown as IDataObject[];
	return runBody(fields, runExtras(body));
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
	ctx: IExecuteFunctions,
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
	const correct = async (message: string, previous: Answer): Promise<Answer> => {
		const fields: IDataObject = {
			...runFields(body),
			messages: [{ role: 'user', content: message }],
			root_id: Number(previous.record.root_id ?? previous.record.id),
		};
		// the files went with the first run only
		const { memoryCollections } = runExtras(body);
		return answerOf(await options.run(runBody(fields, { memoryCollections })), simplify);
	};
	return await answerAsJson(
		ctx,
		options.request,
		answerOf(options.first, simplify),
		correct,
		options.itemIndex,
	);
}
