import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

/**
 * The platform protects every account's "default" collection and refuses (403 "Default collection
 * cannot be deleted") to rename or delete it. Said in this resource's words, not as a refused key.
 */
export function explainDefaultCollection(
	ctx: IExecuteFunctions,
	error: unknown,
	action: 'renamed' | 'deleted',
	itemIndex: number,
): unknown {
	if (!(error instanceof NodeApiError) || error.httpCode !== '403') return error;
	if (!/default collection/i.test(`${error.message} ${error.description ?? ''}`)) return error;
	// the error mapper's message ends with the platform's own words
	const said = `The platform said: ${error.message.replace(/^The platform refused this action: /, '')}`;
	return new NodeApiError(
		ctx.getNode(),
		{ message: error.message },
		{
			itemIndex,
			httpCode: '403',
			message: `The default memory collection cannot be ${action}`,
			description: [
				action === 'renamed'
					? 'Every account keeps its "default" collection under that name. Pick another collection to rename.'
					: 'Every account keeps its "default" collection. Pick another collection to delete.',
				said,
			].join(' '),
		},
	);
}
