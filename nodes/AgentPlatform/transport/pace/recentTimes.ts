/** A bounded list of recent times, for the parts that measure over the newest few (roundTrips.ts, acceptedRate.ts). */

/** Keeps the newest `keep` times (oldest first). */
export function remember(times: number[], at: number, keep: number): void {
	times.push(at);
	if (times.length > keep) times.splice(0, times.length - keep);
}
