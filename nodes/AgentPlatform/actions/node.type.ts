import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

/** Every resource of the Agent Platform node and its operations (the `operation` values). */
type AgentPlatformMap = {
	agent: 'chatCompletion' | 'execute' | 'get' | 'getAll';
	agentFile: 'getAll' | 'link' | 'unlink';
	agentResponse: 'get' | 'getAll';
	file: 'delete' | 'get' | 'getAll' | 'process' | 'upload';
	memory: 'create' | 'delete' | 'getAll' | 'update';
	memoryCollection: 'create' | 'delete' | 'getAll' | 'rename';
	resourceTemplate: 'getAll';
	webhook: 'create' | 'delete' | 'getAll';
	workspace: 'getUsage';
};

export type AgentPlatformResource = keyof AgentPlatformMap;

export type OperationName<R extends AgentPlatformResource> = AgentPlatformMap[R];

export type OperationFunction = (
	this: IExecuteFunctions,
	itemIndex: number,
) => Promise<INodeExecutionData[]>;

/** The router's table: each resource's module must export every one of its operations. */
export type OperationTable = {
	[R in AgentPlatformResource]: Record<AgentPlatformMap[R], { execute: OperationFunction }>;
};
