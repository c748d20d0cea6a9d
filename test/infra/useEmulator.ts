import type { EmulatorOptions, PlatformEmulator } from '../../dev/emulator';
import { startEmulator } from '../../dev/emulator';
import { DEFAULT_COLLECTION_ID } from '../../dev/emulator/types';

/**
 * One emulator for a test file: started before its first test, stopped after its last, and
 * before each test its faults (rate limits included) and recorded requests reset, so no test
 * sees another's. A file's own `beforeEach` runs after that (e.g. to clear a store).
 * `started` hands it over (`useEmulator(opts, (e) => (emu = e))`), so the tests keep a plain
 * variable rather than a getter.
 */
export function useEmulator(
	options: EmulatorOptions,
	started: (emu: PlatformEmulator) => void,
): void {
	let emu: PlatformEmulator | undefined;
	beforeAll(async () => {
		emu = await startEmulator(options);
		started(emu);
	});
	beforeEach(() => {
		emu?.resetFaults();
		emu?.clearRequests();
	});
	afterAll(async () => emu?.stop());
}

/** No memories and no collection but the default one, as a fresh workspace has. */
export function clearMemories(emu: PlatformEmulator): void {
	emu.state.memories.clear();
	for (const id of [...emu.state.collections.keys()])
		if (id !== DEFAULT_COLLECTION_ID) emu.state.collections.delete(id);
}

/**
 * A second emulator for one test, with options of its own (a base path, https-only webhooks):
 * started, handed to `use`, stopped whatever happens.
 */
export async function withEmulator<T>(
	options: EmulatorOptions,
	use: (emu: PlatformEmulator) => Promise<T>,
): Promise<T> {
	const emu = await startEmulator(options);
	try {
		return await use(emu);
	} finally {
		await emu.stop();
	}
}
