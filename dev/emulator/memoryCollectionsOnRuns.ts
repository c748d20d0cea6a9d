/**
 * What a run may carry beyond the spec, as the public client sends it: `memory_collections`
 * (ids of memory collections the run may use). The emulator checks the ids, records them on the
 * run and mentions the collections in the run's output, so a test can see they arrived.
 */
import { parseId, validation } from './http';
import type { Ctx } from './http';

export function checkMemoryCollections(ctx: Ctx, value: unknown): number[] {
	if (value === undefined || value === null) return [];
	if (!Array.isArray(value))
		throw validation('memory_collections', 'The memory collections field must be an array.');
	return value.map((v, i) => {
		const id = typeof v === 'number' ? v : typeof v === 'string' ? parseId(v) : null;
		if (id === null || !ctx.core.state.collections.has(id)) {
			throw validation(
				`memory_collections.${i}`,
				`The selected memory_collections.${i} is invalid.`,
			);
		}
		return id;
	});
}

/** " (memory collections: default #1, customers #4)", or nothing. */
export function memoryCollectionsNote(ctx: Ctx, ids: number[]): string {
	if (!ids.length) return '';
	const names = ids.map((id) => `${ctx.core.state.collections.get(id)?.name ?? '?'} #${id}`);
	return ` (memory collections: ${names.join(', ')})`;
}
