/**
 * The reader of tool calls written as text, one file per group of formats under toolCalls/
 * (docs/chat-model.md, "Tool calls read"); this module is its entry for the rest of the package.
 */
import { StreamedText } from './toolCalls';

export { readToolsAnswer, StreamedText } from './toolCalls';
export type { BoundTool, ToolCall, ToolsAnswer } from './toolCalls';

/**
 * How much of a streamed answer (all its pieces so far) can be shown now: the end of its prose
 * before anything that may open a call or reasoning. The stream itself uses StreamedText, which
 * looks at each piece once.
 */
export function shownLength(text: string): number {
	const streamed = new StreamedText();
	streamed.push(text);
	return streamed.shownEnd;
}
