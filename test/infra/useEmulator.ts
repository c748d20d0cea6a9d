import type { EmulatorOptions, PlatformEmulator } from '../../dev/emulator';
import { startEmulator } from '../../dev/emulator';

/**
 * One emulator for a test file: started before its first test, stopped after its last.
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
	afterAll(async () => emu?.stop());
}
