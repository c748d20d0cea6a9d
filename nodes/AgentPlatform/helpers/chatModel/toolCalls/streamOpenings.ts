/**
 * What a stream looks for (streamedText.ts): the families' markers and the reasoning tags it
 * skips, with their first characters and their starts, built once per list of families, so that
 * a stream costs nothing to start.
 */
import { HARMONY_REASONING, HARMONY_WRAPPERS, REASONING_TAGS } from './reasoning';
import type { CallFamily } from './types';

/** Tags skipped, longest first: reasoning's openings and closings, harmony's wrappers. */
export const REASONING = [
	...REASONING_TAGS.flat(),
	...HARMONY_REASONING.flat(),
	...HARMONY_WRAPPERS,
]
	.filter((tag, index, tags) => tags.indexOf(tag) === index)
	.sort((a, b) => b.length - a.length);
/** Harmony's tokens, which wrap reasoning and answer alike (withheld with or without tools). */
const HARMONY = ['<|start|>', '<|channel|>'];

/** What a stream looks for, built once per list of families (and once without tools). */
export interface Openings {
	markers: string[];
	/** The first characters of the markers, to pass over the rest quickly. */
	markerStarts: Set<string>;
	/** Markers and skipped tags, whose first characters at the end wait for the next piece. */
	openingStarts: Set<string>;
	/** Every start of a marker or skipped tag shorter than the whole. */
	partials: Set<string>;
	longest: number;
}

const OPENINGS_OF = new WeakMap<CallFamily[], Openings>();
let openingsWithoutCalls: Openings | undefined;

export function openingsOf(families: CallFamily[], calls: boolean): Openings {
	const known = calls ? OPENINGS_OF.get(families) : openingsWithoutCalls;
	if (known) return known;
	const markers = [
		...new Set([...(calls ? families.flatMap((family) => family.markers) : []), ...HARMONY]),
	];
	const openings = [...REASONING, ...markers];
	const partials = new Set(
		openings.flatMap((opening) => [...opening].map((_, end) => opening.slice(0, end)).slice(1)),
	);
	const built: Openings = {
		markers,
		markerStarts: new Set(markers.map((marker) => marker[0])),
		openingStarts: new Set(openings.map((opening) => opening[0])),
		partials,
		longest: Math.max(...openings.map((tag) => tag.length)),
	};
	if (calls) OPENINGS_OF.set(families, built);
	else openingsWithoutCalls = built;
	return built;
}

/** How many characters at the end of `text` (from `at` on) may be the start of an opening. */
export function partialOpening(text: string, at: number, openings: Openings): number {
	const { longest, openingStarts, partials } = openings;
	for (let i = Math.max(at, text.length - longest); i < text.length; i++)
		if (openingStarts.has(text[i]) && partials.has(text.slice(i))) return text.length - i;
	return 0;
}
