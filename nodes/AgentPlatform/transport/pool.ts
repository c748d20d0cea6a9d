/** A task of the pool that failed: the lowest index that did. */
export interface PoolFailure {
	index: number;
	error: unknown;
}

/**
 * The one bounded worker pool (items of a node run, pages of a list): runs `task` for the
 * indexes 0, 1, … below `count()` in that order, at most `concurrency` at a time. `count` is read
 * again before each start, so a task may shorten the run. After a failure no further index is
 * started; the tasks under way end first. Resolves the failure with the lowest index, if any.
 */
export async function runPool(
	count: () => number,
	concurrency: number,
	task: (index: number) => Promise<void>,
): Promise<PoolFailure | undefined> {
	let next = 0;
	const failed: { first?: PoolFailure } = {};
	const worker = async () => {
		while (failed.first === undefined && next < count()) {
			const index = next++;
			try {
				await task(index);
			} catch (error) {
				// another worker may have failed meanwhile: keep the lowest index
				const earlier = failed.first as PoolFailure | undefined;
				if (earlier === undefined || index < earlier.index) failed.first = { index, error };
			}
		}
	};
	const workers = Math.max(0, Math.min(concurrency, count()));
	await Promise.all(Array.from({ length: workers }, worker));
	return failed.first;
}
