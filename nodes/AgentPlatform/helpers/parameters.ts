import type { IExecuteFunctions, INodeParameterResourceLocator } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * Reads a resource-locator parameter holding a numeric platform ID, checked before any request,
 * so a wrong value fails with a message naming the parameter and the item.
 */
export function numericIdParameter(
	ctx: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
): string {
	const raw = ctx.getNodeParameter(name, itemIndex, '', { extractValue: true }) as
		| string
		| number
		| INodeParameterResourceLocator;
	// An expression that resolves to nothing is an empty ID, not the text "undefined".
	const value = String((typeof raw === 'object' && raw !== null ? raw.value : raw) ?? '').trim();
	if (!/^\d+$/.test(value)) {
		throw new NodeOperationError(
			ctx.getNode(),
			value
				? `The ${label} "${value}" is not a valid ID (item ${itemIndex + 1})`
				: `The ${label} is empty (item ${itemIndex + 1})`,
			{ itemIndex, description: `Pick the ${label} from the list, or give its numeric ID.` },
		);
	}
	return value;
}
