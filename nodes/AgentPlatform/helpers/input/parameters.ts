import type {
	IDataObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INode,
	INodeParameterResourceLocator,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

export type RawId = string | number | INodeParameterResourceLocator | undefined | null;

/** The one way a message names the input item it is about: "… (item 3)". */
export function inItem(message: string, itemIndex: number | undefined): string {
	return itemIndex === undefined ? message : `${message} (item ${itemIndex + 1})`;
}

/** The agent's id in a URL of the agent picker's By URL mode: the number after /agents/. */
const AGENT_URL_ID = /\/agents\/(\d+)/;

/**
 * The text of an ID read from a parameter: a resource locator's value (By URL: the id in the URL,
 * read here rather than by an `extractValue` regex, see common.descriptions.ts) or a plain one.
 * An expression that resolves to nothing is an empty ID, not the text "undefined".
 */
function idText(raw: RawId): string {
	if (typeof raw !== 'object' || raw === null) return String(raw ?? '').trim();
	const value = String(raw.value ?? '').trim();
	return raw.mode === 'url' ? (AGENT_URL_ID.exec(value)?.[1] ?? value) : value;
}

/**
 * Checks a numeric platform ID read from a parameter (a resource locator or a plain value)
 * before any request: a wrong value fails naming the parameter and, for items, the item.
 */
export function numericIdFrom(node: INode, raw: RawId, label: string, itemIndex?: number): string {
	const value = idText(raw);
	if (!/^\d+$/.test(value)) {
		const byUrl = typeof raw === 'object' && raw?.mode === 'url';
		throw new NodeOperationError(
			node,
			inItem(
				!value
					? `The ${label} is empty`
					: byUrl
						? `The ${label} URL "${value}" has no /agents/<id> in it`
						: `The ${label} "${value}" is not a valid ID`,
				itemIndex,
			),
			{ itemIndex, description: `Pick the ${label} from the list, or give its numeric ID.` },
		);
	}
	return value;
}

/** Reads a parameter holding a numeric platform ID for one item, checked as numericIdFrom does. */
export function readNumericId(
	ctx: Pick<IExecuteFunctions, 'getNodeParameter' | 'getNode'>,
	name: string,
	label: string,
	itemIndex: number,
): string {
	return numericIdFrom(
		ctx.getNode(),
		ctx.getNodeParameter(name, itemIndex, '') as RawId,
		label,
		itemIndex,
	);
}

/** The picked agent's id, whichever mode of the agent picker was used. */
export function currentAgentId(ctx: ILoadOptionsFunctions): string | undefined {
	const id = idText(ctx.getCurrentNodeParameter('agentId') as RawId);
	return /^\d+$/.test(id) ? id : undefined;
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

/** An optional ID (a filter, a collection): undefined when left empty, else checked as readNumericId does. */
export function readOptionalNumericId(
	ctx: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
): string | undefined {
	const raw = ctx.getNodeParameter(name, itemIndex, '') as RawId;
	return idText(raw) ? numericIdFrom(ctx.getNode(), raw, label, itemIndex) : undefined;
}

/** The collection name, checked not to be empty before anything is sent. */
export function readCollectionName(ctx: IExecuteFunctions, itemIndex: number): string {
	const name = String(ctx.getNodeParameter('name', itemIndex, '') ?? '').trim();
	if (!name) {
		throw new NodeOperationError(ctx.getNode(), inItem(`The collection name is empty`, itemIndex), {
			itemIndex,
			description: 'Give the collection a name.',
		});
	}
	return name;
}

/** The platform stores at most this many characters per memory. */
export const MAX_MEMORY_CHARS = 32000;

/**
 * The memory text, checked before anything is sent: not empty, and at most 32000 characters
 * (counted as the platform counts them: one per Unicode character, not per UTF-16 unit).
 */
export function readMemoryText(ctx: IExecuteFunctions, itemIndex: number): string {
	const memory = String(ctx.getNodeParameter('memory', itemIndex, '') ?? '');
	if (!memory.trim()) {
		throw new NodeOperationError(ctx.getNode(), inItem(`The Memory is empty`, itemIndex), {
			itemIndex,
			description: 'Give the text the memory should hold.',
		});
	}
	const length = [...memory].length;
	if (length > MAX_MEMORY_CHARS) {
		throw new NodeOperationError(
			ctx.getNode(),
			inItem(
				`The Memory is ${length} characters long; the platform stores at most ${MAX_MEMORY_CHARS}`,
				itemIndex,
			),
			{ itemIndex, description: 'Shorten the text, or split it into several memories.' },
		);
	}
	return memory;
}

/** Create's and Update's body: the checked text, and the collection's ID when one is picked. */
export function readMemoryBody(
	ctx: IExecuteFunctions,
	itemIndex: number,
): { body: IDataObject; collectionId?: string } {
	const memory = readMemoryText(ctx, itemIndex);
	const collectionId = readOptionalNumericId(ctx, 'collectionId', 'collection', itemIndex);
	return {
		body: { memory, ...(collectionId ? { collection_id: Number(collectionId) } : {}) },
		collectionId,
	};
}

/** The collection IDs of the option, checked before any request; empty when none is given. */
export function readMemoryCollections(ctx: IExecuteFunctions, itemIndex: number): number[] {
	const entries = ctx.getNodeParameter(
		'options.memoryCollections.collections',
		itemIndex,
		[],
	) as IDataObject[];
	const ids = entries.map((entry) =>
		Number(
			numericIdFrom(
				ctx.getNode(),
				entry.collection as INodeParameterResourceLocator,
				'memory collection',
				itemIndex,
			),
		),
	);
	return [...new Set(ids)];
}
