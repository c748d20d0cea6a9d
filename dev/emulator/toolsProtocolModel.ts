/**
 * A scripted model for the Agent Platform Chat Model's tools protocol (the package's
 * helpers/chatModel/toolsProtocol.ts, docs/chat-model.md). A chat-completions request whose system
 * message starts with the protocol's mark is answered by it instead of the agent's own output:
 *
 * - the last user message is the question → a tool call of the first tool described, each string
 *   argument set to the question (numbers 1, booleans false);
 * - the last user message is a tool's result → `Here is what <tool> said: <result>`;
 * - a correction request → a valid answer, as above.
 *
 * A marker in the question asks for a broken first answer, to test every path: `[model: prose]`
 * (a final answer in prose, no call), `[model: broken json]`, `[model: unknown tool]`,
 * `[model: wrong arguments]` (each corrected on the correction request), `[model: broken twice]`
 * (broken again after it).
 *
 * NOT the platform: production runs the agent's model, which was asked, not scripted, to follow it.
 */
import { TOOLS_PROTOCOL_MARK } from '../../nodes/AgentPlatform/helpers/chatModel/toolsProtocol';
import { contentText, type Message } from './executionInput';

interface DescribedTool {
	name: string;
	properties: Record<string, { type?: string | string[] }>;
}

const RESULT = /^(?:Result of|Error from) the tool(?: "([^"]*)")?:\n([\s\S]*)$/;
const CORRECTION = 'Your previous answer cannot be used';
const MARKER = /\[model: ([a-z ]+)\]/;

function describedTools(instruction: string): DescribedTool[] {
	const tools: DescribedTool[] = [];
	const pattern = /^- ([^:\n]+): .*\n {2}arguments \(JSON Schema\): (.*)$/gm;
	for (const match of instruction.matchAll(pattern)) {
		let schema: { properties?: DescribedTool['properties'] } = {};
		try {
			schema = JSON.parse(match[2]);
		} catch {
			// described without a readable schema: called without arguments
		}
		tools.push({ name: match[1], properties: schema.properties ?? {} });
	}
	return tools;
}

function argumentsFor(tool: DescribedTool, question: string): Record<string, unknown> {
	const args: Record<string, unknown> = {};
	for (const [name, property] of Object.entries(tool.properties)) {
		const type = Array.isArray(property.type) ? property.type[0] : property.type;
		args[name] =
			type === 'number' || type === 'integer' ? 1 : type === 'boolean' ? false : question;
	}
	return args;
}

const call = (name: string, args: unknown) =>
	JSON.stringify({ tool_call: { name, arguments: args } });

/** The scripted answer, or undefined when the request does not use the protocol. */
export function toolsProtocolAnswer(messages: Message[]): string | undefined {
	const system = messages.find((m) => m.role === 'system');
	const instruction = system ? contentText(system.content) : '';
	const at = instruction.indexOf(TOOLS_PROTOCOL_MARK);
	if (at < 0) return undefined;
	const tools = describedTools(instruction.slice(at));
	const users = messages.filter((m) => m.role === 'user').map((m) => contentText(m.content));
	const last = users[users.length - 1] ?? '';
	const askedText = [...users].reverse().find((u) => !RESULT.test(u) && !u.startsWith(CORRECTION));
	const asked = askedText ?? '';
	const wish = MARKER.exec(asked)?.[1];
	const question = asked.replace(MARKER, '').trim();
	const result = RESULT.exec(last);
	if (result) return `Here is what ${result[1] ?? 'the tool'} said: ${result[2]}`;
	const first = tools[0];
	const valid = first
		? call(first.name, argumentsFor(first, question))
		: `No tools to call: ${question}`;
	if (last.startsWith(CORRECTION))
		return wish === 'broken twice' ? '{"tool_call": {"name": ' : valid;
	switch (wish) {
		case 'prose':
			return `I can answer that without a tool: ${question}`;
		case 'broken json':
		case 'broken twice':
			return '{"tool_call": {"name": ';
		case 'unknown tool':
			return call('no_such_tool', {});
		case 'wrong arguments':
			// the first tool without its arguments: a schema that requires one is not met
			return call(first?.name ?? 'none', { unexpected: true });
		default:
			return valid;
	}
}
