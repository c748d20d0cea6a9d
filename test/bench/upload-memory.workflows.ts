/** The two workflows of the upload-memory bench (case 2): reading the file alone, and uploading it. */
import { fixtureId } from '../../dev/n8n/harness';

export const CREDENTIAL = { id: fixtureId('credBench'), name: 'Agent Platform (bench)' };
export const WORKFLOW = { baseline: 'benchReadOnly001', upload: 'benchUpload00001' };

export function workflows(filePath: string) {
	const credentials = { agentPlatformApi: { id: CREDENTIAL.id, name: CREDENTIAL.name } };
	const trigger = {
		id: 'b0000000-0000-4000-8000-000000000001',
		name: 'Manual Trigger',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const read = {
		id: 'b0000000-0000-4000-8000-000000000002',
		name: 'Read File',
		type: 'n8n-nodes-base.readWriteFile',
		typeVersion: 1,
		position: [220, 0],
		parameters: { operation: 'read', fileSelector: filePath, options: {} },
	};
	const upload = {
		id: 'b0000000-0000-4000-8000-000000000003',
		name: 'Upload',
		type: 'n8n-nodes-agent-platform.agentPlatform',
		typeVersion: 1,
		position: [440, 0],
		parameters: {
			resource: 'file',
			operation: 'upload',
			binaryPropertyName: 'data',
			process: 'no',
			options: {},
		},
		credentials,
	};
	const link = (from: string, to: string) => ({
		[from]: { main: [[{ node: to, type: 'main', index: 0 }]] },
	});
	const settings = { executionOrder: 'v1' };
	return [
		{
			id: WORKFLOW.baseline,
			name: 'Bench: read a file only',
			nodes: [trigger, read],
			connections: link('Manual Trigger', 'Read File'),
			settings,
			active: false,
		},
		{
			id: WORKFLOW.upload,
			name: 'Bench: read a file and upload it',
			nodes: [trigger, read, upload],
			connections: { ...link('Manual Trigger', 'Read File'), ...link('Read File', 'Upload') },
			settings,
			active: false,
		},
	];
}
