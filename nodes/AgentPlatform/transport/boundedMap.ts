/**
 * A Map that holds at most `limit()` entries: setting one makes it the newest, and past the limit
 * the ones set longest ago are forgotten. For what a long-lived n8n process keeps between runs.
 */
export class BoundedMap<K, V> extends Map<K, V> {
	constructor(private readonly limit: () => number) {
		super();
	}

	override set(key: K, value: V): this {
		super.delete(key);
		super.set(key, value);
		for (const oldest of this.keys()) {
			if (this.size <= this.limit()) break;
			this.delete(oldest);
		}
		return this;
	}
}
