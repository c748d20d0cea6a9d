/**
 * A model of one's own behind the emulator (docs/emulator.md#a-model-of-your-own): the chat
 * agents' chat completions are asked of an OpenAI-compatible endpoint (a local Ollama, LM Studio,
 * llama.cpp or vLLM server, or a hosted one) instead of the stand-in; the platform around them
 * (keys, pace, runs, streams, errors) stays the emulator's. `npm start` reads it from the
 * environment (cli.ts): EMULATOR_MODEL_URL, EMULATOR_MODEL_KEY, EMULATOR_MODEL_NAME.
 *
 * The request log (`/_emulator/requests`, the record's `forwarded`, and a line on the emulator's
 * output) shows what went; the key goes only in the Authorization header and is never logged,
 * and is cut out of the endpoint's words. A failure of the endpoint is a failed run.
 */
import type { Ctx } from './http';
import type { ModelEndpoint } from './types';

export type { ModelEndpoint };

/** The endpoint the environment names, if it names one. */
export function modelEndpointFromEnv(env: NodeJS.ProcessEnv): ModelEndpoint | undefined {
	const url = env.EMULATOR_MODEL_URL?.trim();
	if (!url) return undefined;
	return {
		url,
		key: env.EMULATOR_MODEL_KEY?.trim() || undefined,
		model: env.EMULATOR_MODEL_NAME?.trim() || undefined,
	};
}

/** The endpoint failed: the words a failed run carries. */
export class ModelEndpointError extends Error {}

export interface ModelAnswer {
	/** The endpoint's answer as it came (a chat completion), or the chunks of its stream. */
	completion?: Record<string, unknown>;
	content: string;
	finishReason: string;
}

const completionsUrl = (endpoint: ModelEndpoint) =>
	`${endpoint.url.replace(/\/+$/, '')}/chat/completions`;

/**
 * Asks the endpoint: the request's body with the endpoint's model; `onChunk` gets each chunk of a
 * streamed answer as it comes (the body's `stream`).
 */
export async function askModel(
	ctx: Ctx,
	endpoint: ModelEndpoint,
	body: Record<string, unknown>,
	onChunk?: (chunk: Record<string, unknown>) => void,
): Promise<ModelAnswer> {
	const url = completionsUrl(endpoint);
	const sent: Record<string, unknown> = { ...body, model: endpoint.model ?? body.model };
	const stream = sent.stream === true;
	const forwarded = { url, body: sent, status: 0 };
	ctx.record.forwarded = forwarded;
	const hide = (text: string) => (endpoint.key ? text.split(endpoint.key).join('***') : text);
	const fail = (words: string): never => {
		ctx.core.log(`model call to ${url} failed: ${hide(words)}`);
		throw new ModelEndpointError(`The model at ${url} ${hide(words)}`);
	};
	let res: Response;
	try {
		res = await fetch(url, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				...(endpoint.key ? { authorization: `Bearer ${endpoint.key}` } : {}),
			},
			body: JSON.stringify(sent),
		});
	} catch (e) {
		const cause = (e as { cause?: { message?: string } }).cause?.message ?? String(e);
		return fail(`could not be reached: ${cause}`);
	}
	forwarded.status = res.status;
	ctx.core.log(
		`model call -> POST ${url} (model ${String(sent.model)}, stream ${stream}) ${res.status}`,
	);
	const text = stream && res.ok ? '' : await res.text();
	if (!res.ok) {
		let said = text.slice(0, 300);
		try {
			const parsed = JSON.parse(text) as { error?: { message?: string } | string };
			said = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? said);
		} catch {
			// not JSON: its first words
		}
		return fail(`answered ${res.status}: ${said}`);
	}
	if (!stream) {
		let completion: Record<string, unknown>;
		try {
			completion = JSON.parse(text) as Record<string, unknown>;
		} catch {
			return fail('answered something that is not JSON.');
		}
		const choice = (completion.choices as Array<Record<string, any>> | undefined)?.[0]; // eslint-disable-line @typescript-eslint/no-explicit-any
		if (!choice) return fail('answered without a choice.');
		return {
			completion,
			content: String(choice.message?.content ?? ''),
			finishReason: String(choice.finish_reason ?? 'stop'),
		};
	}
	return readStream(res, onChunk, fail);
}

/** A streamed answer, read event by event (Server-Sent Events, `data: …`, `[DONE]`). */
async function readStream(
	res: Response,
	onChunk: ((chunk: Record<string, unknown>) => void) | undefined,
	fail: (words: string) => never,
): Promise<ModelAnswer> {
	let content = '';
	let finishReason = 'stop';
	let pending = '';
	const decoder = new TextDecoder();
	const take = (line: string) => {
		const data = line.replace(/^data:\s?/, '').trim();
		if (!line.startsWith('data:') || !data || data === '[DONE]') return;
		let chunk: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
		try {
			chunk = JSON.parse(data);
		} catch {
			return fail('streamed something that is not JSON.');
		}
		if (chunk.error)
			return fail(`streamed an error: ${chunk.error.message ?? String(chunk.error)}`);
		const choice = chunk.choices?.[0];
		content += choice?.delta?.content ?? '';
		if (choice?.finish_reason) finishReason = choice.finish_reason;
		onChunk?.(chunk);
	};
	for await (const part of res.body as unknown as AsyncIterable<Uint8Array>) {
		pending += decoder.decode(part, { stream: true });
		const lines = pending.split('\n');
		pending = lines.pop() ?? '';
		lines.forEach(take);
	}
	take(pending);
	return { content, finishReason };
}

/** A failed run's error, as the chat completions answer it (runs.ts). */
export const failedRun = (message: string) => ({
	error: { message, type: 'server_error', param: null, code: 'agent_failed' },
});
