/**
 * A multipart body that streams, without the `form-data` package or `node:stream` (both are
 * rejected in the tarball by n8n's community checks).
 *
 * n8n's request helpers hand the body to axios, and axios turns a *spec-compliant* FormData into
 * a stream itself: it reads each file part through its async iterator and computes an exact
 * `Content-Length` from the parts' sizes. So the body is a class instance with `append`,
 * `entries()`, `[Symbol.iterator]` and the `FormData` string tag (axios sends a plain object
 * literal as JSON), and each file is a class instance with `name`, `type`, an exact `size`, the
 * `File` string tag and an async iterator that opens its source only when axios reads it: a
 * retried request reads it again from the start. The request must not follow redirects (the
 * transport sets `disableFollowRedirect` on every request): follow-redirects keeps a copy of
 * every byte written, to replay it. Measured by test/bench/upload-memory.ts (peak RSS, both n8n lines).
 */

/** What a file part's bytes come from: opened once per read of the body. */
export type OpenSource = () => Promise<AsyncIterable<Uint8Array> | Uint8Array>;

interface Closable {
	destroy?: () => void;
}

/** One file part: read lazily, as many times as the body is sent. */
export class StreamedFile {
	readonly name: string;
	readonly type: string;
	/** Exact byte count: axios puts it into the request's Content-Length. */
	readonly size: number;
	private readonly open: OpenSource;
	/** The source of the latest read, closed when a new read starts or when release() is called. */
	private current: (AsyncIterable<Uint8Array> & Closable) | undefined;
	/** How many times the body has been read (a retried request reads it again). */
	opened = 0;
	/** Whether the latest read handed over every byte: if not, the platform cannot have stored the file. */
	readWhole = false;

	constructor(file: { name: string; type: string; size: number; open: OpenSource }) {
		this.name = file.name;
		this.type = file.type || 'application/octet-stream';
		this.size = file.size;
		this.open = file.open;
	}

	get [Symbol.toStringTag](): string {
		return 'File';
	}

	async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array> {
		this.release(); // an earlier attempt's source that nobody finished reading
		this.opened++;
		this.readWhole = false;
		const source = await this.open();
		let sent = 0;
		const check = (chunk: Uint8Array) => {
			sent += chunk.byteLength;
			if (sent > this.size) {
				throw new Error(`"${this.name}" holds more than the ${this.size} bytes it declared`);
			}
		};
		if (source instanceof Uint8Array) {
			check(source);
			yield source;
		} else {
			const stream = source as AsyncIterable<Uint8Array> & Closable;
			this.current = stream;
			try {
				for await (const chunk of stream) {
					check(chunk);
					yield chunk;
				}
			} finally {
				this.close(stream); // its own source only: a retry may be reading a newer one
			}
		}
		if (sent !== this.size) {
			throw new Error(`"${this.name}" ended after ${sent} of the ${this.size} bytes it declared`);
		}
		this.readWhole = true;
	}

	/** Closes a source left open (a request that failed while the part was being read). */
	release(): void {
		if (this.current) this.close(this.current);
	}

	private close(source: Closable): void {
		if (this.current === source) this.current = undefined;
		if (typeof source.destroy === 'function') source.destroy();
	}
}

export type MultipartValue = string | StreamedFile;

/** The spec-compliant FormData subset axios reads (see the top of this file). */
export class MultipartForm {
	private readonly parts: Array<[string, MultipartValue]> = [];

	append(name: string, value: MultipartValue): void {
		this.parts.push([name, value]);
	}

	*entries(): Generator<[string, MultipartValue]> {
		for (const part of this.parts) yield part;
	}

	[Symbol.iterator](): Generator<[string, MultipartValue]> {
		return this.entries();
	}

	get [Symbol.toStringTag](): string {
		return 'FormData';
	}

	/**
	 * Whether every file part was handed over whole. A request that broke before that (say the
	 * platform answered 429 early and closed) cannot have stored anything: safe to send again.
	 */
	sentWhole(): boolean {
		return this.parts.every(([, value]) => !(value instanceof StreamedFile) || value.readWhole);
	}

	/** Closes any file source a failed request left open. */
	release(): void {
		for (const [, value] of this.parts) if (value instanceof StreamedFile) value.release();
	}
}
