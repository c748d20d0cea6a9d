/**
 * A workflow's run (what `n8n execute` prints, or the execution a running n8n saved), and the items
 * and errors the tests read from it.
 */

/** The subset of n8n's IRun that the tests read. */
export interface N8nRun {
	status?: string;
	finished?: boolean;
	data: {
		resultData: {
			runData: Record<string, N8nTaskData[]>;
			lastNodeExecuted?: string;
			error?: N8nError;
		};
	};
	[key: string]: unknown;
}
export interface N8nTaskData {
	data?: {
		main?: Array<Array<{ json: Record<string, unknown>; binary?: Record<string, unknown> }> | null>;
	};
	error?: N8nError;
	executionStatus?: string;
	[key: string]: unknown;
}
export interface N8nError {
	message: string;
	description?: string | null;
	httpCode?: string;
	node?: { name: string; type: string };
	name?: string;
	[key: string]: unknown;
}

export interface ExecuteResult {
	/** The run: the JSON `n8n execute` printed, or the execution n8n saved. */
	run: N8nRun;
	stdout: string;
	stderr: string;
	/** Whether the run has an error. */
	failed: boolean;
	/** Seconds the run took (with `n8n execute`, the start of its process included). */
	seconds: number;
}

/**
 * Extracts the run JSON from `n8n execute` output: from the first line that is exactly
 * "{" to the first later line that is exactly "}" (JSON.stringify(run, null, 2) indents
 * everything else). Returns undefined when there is none.
 */
export function parseRunJson(stdout: string): N8nRun | undefined {
	const lines = stdout.split(/\r?\n/);
	const start = lines.indexOf('{');
	if (start < 0) return undefined;
	const end = lines.indexOf('}', start + 1);
	if (end < 0) return undefined;
	try {
		return JSON.parse(lines.slice(start, end + 1).join('\n')) as N8nRun;
	} catch {
		return undefined;
	}
}

/** Output items (json) of a node's last run, first output. */
export function nodeItems(
	runResult: N8nRun,
	nodeName: string,
	outputIndex = 0,
): Array<Record<string, unknown>> {
	const runs = runResult.data.resultData.runData[nodeName];
	if (!runs || runs.length === 0) {
		const ran = Object.keys(runResult.data.resultData.runData).join(', ');
		throw new Error(`node "${nodeName}" did not run (nodes that ran: ${ran || 'none'})`);
	}
	const output = runs[runs.length - 1].data?.main?.[outputIndex] ?? [];
	return output.map((item) => item.json);
}

/** Output items (json) of the last node that ran. */
export function lastNodeItems(runResult: N8nRun): Array<Record<string, unknown>> {
	const last = runResult.data.resultData.lastNodeExecuted;
	if (!last) throw new Error('the run has no lastNodeExecuted');
	return nodeItems(runResult, last);
}

/** The error of a failed run (the workflow's, else the first node error found), or undefined. */
export function runError(runResult: N8nRun): N8nError | undefined {
	const { error, runData } = runResult.data.resultData;
	if (error) return error;
	for (const runs of Object.values(runData)) {
		for (const task of runs) if (task.error) return task.error;
	}
	return undefined;
}
