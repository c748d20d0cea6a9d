/** What the XML families share: a tag's name unquoted, and parameters read as name → text pairs. */
export const unquote = (name: string) => name.trim().replace(/^["']|["']$/g, '');

export function pairs(body: string, pattern: RegExp): Record<string, string> {
	const args: Record<string, string> = {};
	for (const match of body.matchAll(pattern)) args[unquote(match[1])] = match[2];
	return args;
}
