/**
 * The reader of tool calls written as text, one module per family of formats under
 * toolCalls/families/ (docs/chat-model.md, "Tool calls read"); this module is its entry for the
 * rest of the package: `readToolsAnswer(reply, tools, families?)` reads a whole answer,
 * `StreamedText` tells what of a streamed one may be shown, `familiesFor(models)` chooses the
 * families by the agent's models; `splitReasoning`, `closingAlone` and `reasoningOpenedInPrompt`
 * tell the reasoning apart. The rest of the package reads through here only.
 */
export { familiesFor, readToolsAnswer, StreamedText } from './toolCalls';
export { closingAlone, reasoningOpenedInPrompt, splitReasoning } from './toolCalls/reasoning';
export type { BoundTool, CallFamily, ToolCall, ToolsAnswer } from './toolCalls';
