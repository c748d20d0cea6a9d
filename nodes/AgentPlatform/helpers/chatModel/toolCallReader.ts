/**
 * The reader of tool calls written as text, one file per group of formats under toolCalls/
 * (docs/chat-model.md, "Tool calls read"); this module is its entry for the rest of the package.
 */
export { readToolsAnswer, StreamedText } from './toolCalls';
export type { BoundTool, ToolCall, ToolsAnswer } from './toolCalls';
