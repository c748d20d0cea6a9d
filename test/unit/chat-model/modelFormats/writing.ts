/** What the writers share: a call's arguments as JSON, Python or XML parameters. */
import type { ToolCall } from '../../../../nodes/AgentPlatform/helpers/chatModel/toolCalls/types';

export type CallWriter = (calls: ToolCall[]) => string;

export const json = (value: unknown) => JSON.stringify(value);
export const argumentsJson = (call: ToolCall) => json(call.arguments);
export const named = (call: ToolCall) => ({ name: call.name, arguments: call.arguments });
/** A parameter's value as XML formats write it: a string as it is, anything else as JSON. */
export const asText = (value: unknown) => (typeof value === 'string' ? value : json(value));

/** Each call written alone, one after another. */
export const each =
	(write: (call: ToolCall) => string, between = '\n'): CallWriter =>
	(calls) =>
		calls.map(write).join(between);

export const pythonCall = (call: ToolCall) =>
	`${call.name}(${Object.entries(call.arguments)
		.map(([key, value]) => `${key}=${typeof value === 'string' ? `'${value}'` : json(value)}`)
		.join(', ')})`;

export const xmlParameters = (call: ToolCall, write: (key: string, value: string) => string) =>
	Object.entries(call.arguments)
		.map(([key, value]) => write(key, asText(value)))
		.join('\n');
