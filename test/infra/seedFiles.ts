import type { PlatformEmulator, StoredFile } from '../../dev/emulator';

let nextId = 900_000;

/**
 * Stored files put straight into the emulator's state (no request recorded): "seeded-<n>.txt",
 * waiting, one second apart from 2025-01-01, oldest first. Returns their IDs.
 */
export function seedFiles(emu: PlatformEmulator, count: number): number[] {
	const ids: number[] = [];
	for (let i = 0; i < count; i++) {
		const id = nextId++;
		const file: StoredFile = {
			id,
			object: 'file',
			created_at: new Date(Date.UTC(2025, 0, 1, 0, 0, i))
				.toISOString()
				.replace(/\.\d{3}Z$/, '+00:00'),
			bytes: 10 + i,
			filename: `seeded-${i}.txt`,
			credits: 0,
			status: 'waiting',
			mimeType: 'text/plain',
			sha256: '',
			content: null,
		};
		emu.state.files.set(id, file);
		ids.push(id);
	}
	return ids;
}
