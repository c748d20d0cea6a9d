/**
 * The one per-run cache: what a node run needs once (its credential, an agent's definition) is
 * fetched once per run, however many items and requests use it. Keyed by n8n's context object of
 * the run, so it goes when the run does; a failed fetch is forgotten, so a later item asks again.
 */
const caches = new WeakMap<object, Map<string, Promise<unknown>>>();

export function oncePerRun<T>(run: object, key: string, fetch: () => Promise<T>): Promise<T> {
	let cache = caches.get(run);
	if (!cache) caches.set(run, (cache = new Map()));
	let value = cache.get(key) as Promise<T> | undefined;
	if (!value) {
		value = fetch();
		cache.set(key, value);
		value.catch(() => cache.delete(key));
	}
	return value;
}
