/**
 * The pending calls of streamed answers: the calls of one answer after its first, given without a
 * request when the result of the one before comes back. n8n's SDK adapter gives every streamed
 * call the index 0, so LangChain would merge two calls of one stream into one broken call: a
 * stream carries one call. The AI Agent (3.x) runs its tools between two runs of its node, each
 * with a new model, so they are kept here, by their unique call ids; each is taken once, and the
 * oldest go first beyond a hundred.
 */
import { BoundedMap } from '../../transport/boundedMap';
import type { Message, StreamChunk } from './aiNodeSdk';
import type { ToolCall } from './toolCallReader';

const pendingCalls = new BoundedMap<string, ToolCall[]>(() => 100);

let calls = 0;
function callId(): string {
	return `agent_platform_call_${Date.now().toString(36)}_${++calls}`;
}

export function toolCallPart(call: ToolCall) {
	return {
		type: 'tool-call' as const,
		toolCallId: callId(),
		toolName: call.name,
		input: JSON.stringify(call.arguments),
	};
}

/** The pending calls after the call whose result ends the conversation, if any (taken once). */
export function pendingCallsAfter(messages: Message[]): ToolCall[] | undefined {
	const last = messages[messages.length - 1];
	if (last?.role !== 'tool') return undefined;
	for (const part of last.content) {
		const id = part.type === 'tool-result' ? String(part.toolCallId) : undefined;
		const waiting = id ? pendingCalls.get(id) : undefined;
		if (!id || !waiting) continue;
		pendingCalls.delete(id);
		return waiting;
	}
	return undefined;
}

/** The first of the calls as a stream's chunk; the others kept as pending calls after it. */
export function* firstCallChunk(waiting: ToolCall[]): Generator<StreamChunk> {
	const [next, ...later] = waiting;
	const part = toolCallPart(next);
	if (later.length) pendingCalls.set(part.toolCallId, later);
	yield {
		type: 'tool-call-delta',
		id: part.toolCallId,
		name: part.toolName,
		argumentsDelta: part.input,
	};
}
