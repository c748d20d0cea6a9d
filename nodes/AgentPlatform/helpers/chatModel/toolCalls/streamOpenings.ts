/**
 * What a stream looks for (streamedText.ts): the families' markers with each one's verdict, their
 * marker patterns, openings without a marker and call fences, and the reasoning tags it skips,
 * with their first characters and their starts, built once per list of families, so that a stream
 * costs nothing to start.
 */
import { CHANNELS, REASONING_TAGS } from './families';
import { tagVerdict } from './families/blocks';
import type { BoundTool, CallFamily, Verdict } from './types';

/** Tags skipped, longest first: reasoning's openings and closings, channels' wrappers. */
export const REASONING = [
	...REASONING_TAGS.flat(),
	...CHANNELS.flatMap((channels) => [...channels.reasoning.flat(), ...channels.wrappers]),
]
	.filter((tag, index, tags) => tags.indexOf(tag) === index)
	.sort((a, b) => b.length - a.length);
/** The first characters of the reasoning tags. */
export const REASONING_STARTS = new Set(REASONING.map((tag) => tag[0]));
/** Every reasoning tag pair the stream meets, [opening, closing]. */
export const REASONING_PAIRS = [
	...REASONING_TAGS,
	...CHANNELS.flatMap((channels) => channels.reasoning),
];
/** Channels' tokens, which wrap reasoning and answer alike (pending with or without tools). */
const CHANNEL_TOKENS = CHANNELS.flatMap((channels) => channels.tokens);

/** A marker's verdict: `text` from the marker on. */
export type MarkerVerdict = (text: string, lineStart: boolean, ended: boolean) => Verdict;

/** What a stream looks for, built once per list of families (and once without tools). */
export interface Openings {
	markers: string[];
	/** Each marker's verdict: its family's, or a tag's. */
	verdicts: Map<string, MarkerVerdict>;
	/** The first characters of the markers, to pass over the rest quickly. */
	markerStarts: Set<string>;
	/** Families whose marker is a pattern, and those read where a call without a marker opens. */
	patterned: CallFamily[];
	opening: CallFamily[];
	/** Fence languages that wrap a call. */
	callFences: string[];
	/** Markers and skipped tags, whose first characters at the end wait for the next piece. */
	openingStarts: Set<string>;
	/** Every start of a marker or skipped tag shorter than the whole. */
	partials: Set<string>;
	longest: number;
}

const OPENINGS_OF = new WeakMap<CallFamily[], Openings>();
let openingsWithoutCalls: Openings | undefined;

/** Each marker's verdict: the first family's that writes it, else a tag's. */
function verdictsOf(families: CallFamily[], markers: string[]): Map<string, MarkerVerdict> {
	const verdicts = new Map<string, MarkerVerdict>();
	for (const marker of markers) {
		const own = families.find((family) => family.markers.includes(marker))?.markerVerdict;
		verdicts.set(
			marker,
			own
				? (text, lineStart, ended) => own(marker, text, lineStart, ended)
				: (text, _, ended) => tagVerdict(text.slice(marker.length, marker.length + 64), ended),
		);
	}
	return verdicts;
}

export function openingsOf(families: CallFamily[], calls: boolean): Openings {
	const known = calls ? OPENINGS_OF.get(families) : openingsWithoutCalls;
	if (known) return known;
	const withCalls = calls ? families : [];
	const markers = [
		...new Set([...withCalls.flatMap((family) => family.markers), ...CHANNEL_TOKENS]),
	];
	const openings = [...REASONING, ...markers];
	const partials = new Set(
		openings.flatMap((opening) => [...opening].map((_, end) => opening.slice(0, end)).slice(1)),
	);
	const built: Openings = {
		markers,
		verdicts: verdictsOf(withCalls, markers),
		markerStarts: new Set(markers.map((marker) => marker[0])),
		patterned: withCalls.filter((family) => family.patternVerdict),
		opening: withCalls.filter((family) => family.openingVerdict),
		callFences: withCalls.flatMap((family) => family.callFences ?? []),
		openingStarts: new Set(openings.map((opening) => opening[0])),
		partials,
		longest: Math.max(...openings.map((tag) => tag.length)),
	};
	if (calls) OPENINGS_OF.set(families, built);
	else openingsWithoutCalls = built;
	return built;
}

/**
 * Whether a fenced block's first lines where a call may open (the answer's start or after its
 * lead-in) may be a call in any family's format: a marker, JSON, a call list or a bare call.
 */
export function fencedVerdict(
	content: string,
	openings: Openings,
	tools: BoundTool[] | undefined,
): Verdict {
	if (!content) return 'undecided';
	for (const marker of openings.markers) {
		if (content.startsWith(marker)) return openings.verdicts.get(marker)!(content, true, false);
		if (marker.startsWith(content)) return 'undecided';
	}
	for (const family of openings.opening) {
		const verdict = family.openingVerdict!(content, true, tools);
		if (verdict !== 'text') return verdict;
	}
	return 'text';
}

/** How many characters at the end of `text` (from `at` on) may be the start of an opening. */
export function partialOpening(text: string, at: number, openings: Openings): number {
	const { longest, openingStarts, partials } = openings;
	for (let i = Math.max(at, text.length - longest); i < text.length; i++)
		if (openingStarts.has(text[i]) && partials.has(text.slice(i))) return text.length - i;
	return 0;
}
