/**
 * The run engine: an execution's lifecycle in the emulator's time (clock.ts), its events for
 * streams and waiting calls, and the public wire form of its record.
 *
 * Lifecycle of an execution of duration D with N pieces: `starting` at creation; piece i of the
 * output is produced at D*i/(N+1) (the first one moves the record to `running`; the record's
 * output grows piece by piece); at D the record becomes `succeeded` with the full output and
 * credits (or `failed` with `error` for a failing agent), and webhook deliveries start.
 */
import { mediaFor } from './media';
import type { TimerHandle } from './clock';
import { takeNext } from './scriptedReplies';
import type { EmulatorServices } from './services';
import type { StoredAgent, StoredRun } from './types';

export type ExecEvent = { type: 'piece'; text: string } | { type: 'running' } | { type: 'end' };

export class Execution {
	readonly listeners = new Set<(e: ExecEvent) => void>();
	finished = false;
	private readonly doneWaiters: Array<() => void> = [];

	constructor(
		readonly record: StoredRun,
		readonly agent: StoredAgent,
		readonly pieces: string[],
		readonly failMessage: string | null,
		readonly duration: number,
	) {}

	emit(e: ExecEvent): void {
		for (const l of [...this.listeners]) {
			try {
				l(e);
			} catch {
				/* a broken listener must not stop the execution */
			}
		}
		if (e.type === 'end') {
			this.finished = true;
			for (const w of this.doneWaiters.splice(0)) w();
		}
	}

	onDone(cb: () => void): void {
		if (this.finished) cb();
		else this.doneWaiters.push(cb);
	}
}

/** Public wire form of an Agent response. */
export function responseJson(r: StoredRun) {
	return {
		id: r.id,
		status: r.status,
		input: r.input,
		output: r.output,
		error: r.error,
		credits: r.credits,
		root_id: r.root_id,
		created_at: r.created_at,
		updated_at: r.updated_at,
		template_id: r.template_id,
		// image and video agents: what they produced (production's shape is not public; see media.ts)
		...(r.generated_files
			? {
					generated_files: r.generated_files.map((f) =>
						f && typeof f === 'object' ? { ...f } : f,
					),
				}
			: {}),
	};
}

export function creditsFor(output: string): number {
	return Math.round((0.5 + 0.01 * output.length) * 100) / 100;
}

/** Splits text into at most n non-empty consecutive pieces whose concatenation is the text. */
export function splitPieces(text: string, n: number): string[] {
	const count = Math.max(1, Math.min(n, text.length));
	if (text.length === 0) return [];
	const out: string[] = [];
	const size = text.length / count;
	for (let i = 0; i < count; i++)
		out.push(text.slice(Math.round(i * size), Math.round((i + 1) * size)));
	return out.filter((p) => p.length > 0);
}

export class ExecutionEngine {
	readonly running = new Map<number, Execution>();
	private readonly timers = new Set<TimerHandle>();

	constructor(
		private readonly core: EmulatorServices,
		/** Called when a run ends (the platform starts its webhook deliveries). */
		private readonly onFinished: (record: StoredRun) => void,
	) {}

	start(
		agent: StoredAgent,
		input: string,
		answers: Record<string, unknown>,
		opts: {
			rootId: number | null;
			fileIds: number[];
			via: StoredRun['via'];
			subject: string;
			/** The answer to give instead of the agent's own (the tools protocol's scripted model). */
			output?: string;
			/** Said at the end of the echo: what the agent saw of the session (sessionSeen.ts). */
			seen?: string;
			/** The run fails with these words (the model endpoint failed, modelEndpoint.ts). */
			failMessage?: string;
		},
	): Execution {
		const core = this.core;
		const cfg = core.agentConfig.get(agent.id) ?? {};
		const duration = Math.max(0, cfg.executionSeconds ?? core.opts.executionSeconds);
		const eventsWanted = Math.max(1, Math.floor(cfg.streamEvents ?? 8));
		const failMessage =
			opts.failMessage ??
			(typeof cfg.fail === 'string' && cfg.fail !== ''
				? cfg.fail
				: cfg.fail === true
					? 'The agent execution failed.'
					: cfg.fail === false
						? null
						: (agent.failMessage ?? null));
		const output =
			opts.output ??
			takeNext(cfg.outputs) ??
			cfg.output ??
			`Echo from ${agent.title}: ${opts.subject}${opts.seen ?? ''}`;

		const id = core.nextId('response');
		const now = core.clock.isoMicro();
		const record: StoredRun = {
			id,
			status: 'starting',
			input,
			output: '',
			error: null,
			credits: null,
			root_id: opts.rootId ?? id,
			created_at: now,
			updated_at: now,
			template_id: agent.id,
			answers,
			fileIds: opts.fileIds,
			via: opts.via,
		};
		core.state.runs.set(id, record);
		core.runCount++;

		const pieces = failMessage ? [] : splitPieces(output, eventsWanted);
		const exec = new Execution(record, agent, pieces, failMessage, duration);
		this.running.set(id, exec);

		// Steps at virtual times; chained so only one timer is pending per execution.
		const steps: Array<{ at: number; run: () => void }> = [];
		const touch = () => {
			record.updated_at = core.clock.isoMicro();
		};
		if (failMessage) {
			steps.push({
				at: duration / 2,
				run: () => {
					record.status = 'running';
					touch();
					exec.emit({ type: 'running' });
				},
			});
		} else {
			pieces.forEach((piece, i) => {
				steps.push({
					at: (duration * (i + 1)) / (pieces.length + 1),
					run: () => {
						record.status = 'running';
						record.output += piece;
						touch();
						exec.emit({ type: 'piece', text: piece });
					},
				});
			});
		}
		steps.push({
			at: duration,
			run: () => {
				if (failMessage) {
					record.status = 'failed';
					record.error = failMessage;
					record.output = '';
					record.credits = 0;
				} else {
					record.status = 'succeeded';
					record.output = output;
					record.credits = creditsFor(output);
					if (cfg.generatedFiles) record.generated_files = cfg.generatedFiles;
					else {
						const media = mediaFor(agent.type);
						if (media && core.storage) {
							record.generated_files = [
								{
									name: media.name,
									url: core.storage.generatedUrl(record.id, media.name),
									mime_type: media.mimeType,
									size: media.bytes.length,
								},
							];
						}
					}
				}
				touch();
				this.running.delete(id);
				exec.emit({ type: 'end' });
				this.onFinished(record);
			},
		});

		let elapsed = 0;
		const runFrom = (i: number) => {
			if (i >= steps.length || core.stopped) return;
			const step = steps[i];
			const delay = Math.max(0, step.at - elapsed);
			const h = core.clock.after(delay, () => {
				this.timers.delete(h);
				elapsed = step.at;
				step.run();
				runFrom(i + 1);
			});
			this.timers.add(h);
		};
		runFrom(0);
		return exec;
	}

	/** Resolves when the execution ends or after `virtualSeconds`, whichever comes first. */
	wait(exec: Execution, virtualSeconds: number): Promise<void> {
		return new Promise((resolve) => {
			if (exec.finished) return resolve();
			let settled = false;
			const h = this.core.clock.after(virtualSeconds, () => {
				this.timers.delete(h);
				if (!settled) {
					settled = true;
					resolve();
				}
			});
			this.timers.add(h);
			exec.onDone(() => {
				if (settled) return;
				settled = true;
				this.core.clock.cancel(h);
				this.timers.delete(h);
				resolve();
			});
		});
	}

	stop(): void {
		for (const h of this.timers) this.core.clock.cancel(h);
		this.timers.clear();
	}
}
