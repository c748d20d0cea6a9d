/** A bounded list of recent times, for the parts that measure over the newest few (roundTrips.ts, acceptedRate.ts). */

/** Adds `at` to `times` (oldest first) and keeps the newest `most` of them. */
export function addKeepingNewest(times: number[], at: number, most: number): void {
	times.push(at);
	if (times.length > most) times.splice(0, times.length - most);
}
