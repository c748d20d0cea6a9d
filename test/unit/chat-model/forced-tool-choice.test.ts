/**
 * The `tool_choice` n8n passes to the model's `bindTools` (the AI Agent's Force Tool Call on First
 * Iteration passes `{ tool_choice: 'any' }`: @n8n/n8n-nodes-langchain 2.41.1,
 * `agents/ToolsAgent/V3/helpers/createAgentSequence.js`), read as the tool the answer must call.
 * The shapes are the documented ones: OpenAI's Chat Completions `tool_choice` ("none", "auto",
 * "required", `{type: "function", function: {name}}`), and LangChain's (`"any"`, a tool's name,
 * Anthropic's `{type: "tool", name}`).
 */
import { forcedToolOf } from '../../../nodes/AgentPlatform/helpers/chatModel/suppliedModel';

const ONE = [{ name: 'add' }];
const TWO = [{ name: 'add' }, { name: 'lookup' }];

describe('the tool a tool_choice forces', () => {
	it.each([
		['any', ONE, 'add'],
		['required', ONE, 'add'],
		['lookup', TWO, 'lookup'],
		[{ type: 'function', function: { name: 'lookup' } }, TWO, 'lookup'],
		[{ type: 'tool', name: 'add' }, TWO, 'add'],
	] as const)('%j with %j bound forces %s', (choice, tools, forced) => {
		expect(forcedToolOf({ tool_choice: choice }, [...tools])).toBe(forced);
	});

	it.each([
		['auto', ONE],
		['none', ONE],
		['any', TWO],
		['required', TWO],
		[undefined, ONE],
	] as const)('%j with %j bound forces none', (choice, tools) => {
		expect(forcedToolOf({ tool_choice: choice }, [...tools])).toBeUndefined();
	});

	it('forces none without options (the SDK adapter’s own call)', () => {
		expect(forcedToolOf(undefined, ONE)).toBeUndefined();
	});
});
