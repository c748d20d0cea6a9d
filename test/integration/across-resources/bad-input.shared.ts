/** What the bad-input test and its table (bad-input.rows-*.ts) share: the emulator (its hooks run in the test file), the parameter builders, the row types. */
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Container } from '@n8n/di';
import { BinaryDataService } from 'n8n-core';
import type { IBinaryData, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { MAX_UPLOAD_BYTES } from '../../../nodes/AgentPlatform/helpers/files/binary';
import type { PlatformEmulator } from '../../../dev/emulator';
import type { HarnessCredentials } from '../../infra/n8n/credentials';
import { byId } from '../../infra/n8n/credentials';
import { useEmulator } from '../../infra/useEmulator';
import { CHAT_AGENT as CHAT, TEXT_AGENT as TEXT } from '../../../dev/emulator';

export { CHAT, TEXT };

export let emu: PlatformEmulator;
useEmulator({ timeScale: 100, quiet: true }, (started) => (emu = started));

/** An expression: n8n itself refuses a literal that fails a picker's own regex before the node runs. */
export const expr = (text: string) => `={{ ${JSON.stringify(text)} }}`;

export const chatSettings = () => emu.firstOptions(CHAT);
export const execute = (extra: INodeParameters, agentId = TEXT): INodeParameters => ({
	resource: 'agent',
	operation: 'execute',
	agentId: byId(String(agentId)),
	...(agentId === CHAT ? { message: 'Hello', ...chatSettings() } : {}),
	...extra,
});
export const textAnswers = (value: Record<string, unknown>) =>
	({ answers: { mappingMode: 'defineBelow', value } }) as INodeParameters;
export const completion = (extra: INodeParameters): INodeParameters => ({
	resource: 'agent',
	operation: 'chatCompletion',
	agentId: byId(String(CHAT)),
	message: 'Hello',
	...chatSettings(),
	...extra,
});
export const upload = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'file',
	operation: 'upload',
	binaryPropertyName: 'data',
	...extra,
});

export interface Case {
	/** What is wrong, in words (the test's name). */
	bad: string;
	parameters: () => INodeParameters;
	items?: () => INodeExecutionData[] | Promise<INodeExecutionData[]>;
	credentials?: () => HarnessCredentials;
	message: string;
	/** What reaches the platform: nothing, or only the agent's form (`GET /agents/{id}`). */
	sends?: 'nothing' | 'the agent form';
}

export interface Row {
	/** The README row's first column. */
	parameter: string;
	cases: Case[];
}

/** A 200 MB + 1 byte sparse file in n8n's binary store (filesystem mode), as n8n would hold it. */
export async function oversizeItem(): Promise<INodeExecutionData[]> {
	const folder = mkdtempSync(path.join(tmpdir(), 'bad-input-'));
	const source = path.join(folder, 'huge.mp4');
	writeFileSync(source, '');
	truncateSync(source, MAX_UPLOAD_BYTES + 1);
	try {
		const binary = await Container.get(BinaryDataService).copyBinaryFile(
			{ type: 'execution', workflowId: 'harness-workflow', executionId: 'bad-input' },
			{ data: '', mimeType: 'video/mp4', fileName: 'huge.mp4' } as IBinaryData,
			source,
		);
		return [{ json: {}, binary: { data: binary } }];
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}
