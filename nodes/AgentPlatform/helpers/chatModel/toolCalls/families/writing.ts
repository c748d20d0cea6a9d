/** What the families' writers share: a call's arguments as JSON, Python or XML parameters. */
import type { Call, CallWriter } from '../types';

export const json = (value: unknown) => JSON.stringify(value);
export const argumentsJson = (call: Call) => json(call.arguments);
export const named = (call: Call) => ({ name: call.name, arguments: call.arguments });
/** A parameter's value as XML formats write it: a string as it is, anything else as JSON. */
export const asText = (value: unknown) => (typeof value === 'string' ? value : json(value));

/** Each call written alone, one after another. */
export const each =
	(write: (call: Call) => string, between = '\n'): CallWriter =>
	(calls) =>
		calls.map(write).join(between);

export const pythonCall = (call: Call) =>
	`${call.name}(${Object.entries(call.arguments)
		.map(([key, value]) => `${key}=${typeof value === 'string' ? `'${value}'` : json(value)}`)
		.join(', ')})`;

export const xmlParameters = (call: Call, write: (key: string, value: string) => string) =>
	Object.entries(call.arguments)
		.map(([key, value]) => write(key, asText(value)))
		.join('\n');
