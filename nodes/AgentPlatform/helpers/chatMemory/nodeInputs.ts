/**
 * The node's inputs, computed from its parameters as n8n's OpenAI vendor node computes its own: a
 * plain function that n8n evaluates in the editor and at run time as the expression
 * `={{(nodeInputs)($parameter.resource, $parameter.operation)}}` (its source is written into the
 * expression, so it names no import and no constant). A Memory input beside `main` for the chat
 * operations only; an input nothing is connected to changes no saved workflow. The tool variant has
 * no inputs (n8n replaces them).
 */
export function nodeInputs(
	resource: string | undefined,
	operation: string | undefined,
): Array<
	string | { type: string; displayName: string; maxConnections: number; required: boolean }
> {
	const chat =
		(resource ?? 'agent') === 'agent' &&
		['execute', 'chatCompletion'].includes(operation ?? 'execute');
	return chat
		? ['main', { type: 'ai_memory', displayName: 'Memory', maxConnections: 1, required: false }]
		: ['main'];
}

/** The expression n8n evaluates for the node's inputs. */
export const NODE_INPUTS_EXPRESSION: `={{${string}}}` = `={{(${nodeInputs.toString()})($parameter.resource, $parameter.operation)}}`;
