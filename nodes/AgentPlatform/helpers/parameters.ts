import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeParameterResourceLocator,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

type RawId = string | number | INodeParameterResourceLocator | undefined | null;

/** The one way a message names the input item it is about: "… (item 3)". */
export function inItem(message: string, itemIndex: number | undefined): string {
	return itemIndex === undefined ? message : `${message} (item ${itemIndex + 1})`;
}

/**
 * Checks a numeric platform ID read from a parameter (a resource locator's value or a plain
 * one) before any request: a wrong value fails naming the parameter and, for items, the item.
 */
export function numericIdFrom(node: INode, raw: RawId, label: string, itemIndex?: number): string {
	// An expression that resolves to nothing is an empty ID, not the text "undefined".
	const value = String((typeof raw === 'object' && raw !== null ? raw.value : raw) ?? '').trim();
	if (!/^\d+$/.test(value)) {
		throw new NodeOperationError(
			node,
			inItem(
				value ? `The ${label} "${value}" is not a valid ID` : `The ${label} is empty`,
				itemIndex,
			),
			{ itemIndex, description: `Pick the ${label} from the list, or give its numeric ID.` },
		);
	}
	return value;
}

/** Reads a parameter holding a numeric platform ID for one item, checked as numericIdFrom does. */
export function numericIdParameter(
	ctx: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
): string {
	const raw = ctx.getNodeParameter(name, itemIndex, '', { extractValue: true }) as RawId;
	return numericIdFrom(ctx.getNode(), raw, label, itemIndex);
}

/** Reads a list of numeric file IDs (comma-separated text or an array); each must be a number. */
export function readFileIds(ctx: IExecuteFunctions, raw: unknown, itemIndex: number): number[] {
	const parts = (Array.isArray(raw) ? raw : String(raw ?? '').split(','))
		.map((part) => String(part).trim())
		.filter(Boolean);
	return parts.map((part) => {
		if (!/^\d+$/.test(part)) {
			throw new NodeOperationError(
				ctx.getNode(),
				inItem(`The file ID "${part}" is not a number`, itemIndex),
				{ itemIndex },
			);
		}
		return Number(part);
	});
}

/** Reads a JSON object given as text or as an object; `label` names the parameter in errors. */
export function readJsonObject(
	ctx: IExecuteFunctions,
	raw: unknown,
	label: string,
	itemIndex: number,
): IDataObject {
	if (raw === undefined || raw === null || raw === '') return {};
	let value = raw;
	if (typeof value === 'string') {
		try {
			value = JSON.parse(value);
		} catch {
			throw new NodeOperationError(ctx.getNode(), inItem(`${label} is not valid JSON`, itemIndex), {
				itemIndex,
			});
		}
	}
	if (typeof value !== 'object' || Array.isArray(value) || value === null) {
		throw new NodeOperationError(
			ctx.getNode(),
			inItem(`${label} must be a JSON object`, itemIndex),
			{
				itemIndex,
			},
		);
	}
	return value as IDataObject;
}

/** A duration parameter given in minutes (the Timeout options), in milliseconds; `fallback` when unset. */
export function minutesToMs(minutes: unknown, fallback: number): number {
	const value = Number(minutes ?? fallback);
	return Math.round((Number.isFinite(value) ? value : fallback) * 60_000);
}
