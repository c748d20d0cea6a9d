/**
 * The families of call formats read, one module each (as vLLM registers one tool parser per
 * family): a new family is one more module in this list. Their markers are taken from the
 * modules, never listed again.
 */
import type { CallFamily } from '../types';
import { asked } from './asked';
import { claudeXml } from './claudeXml';
import { deepseek } from './deepseek';
import { glm } from './glm';
import { harmony } from './harmony';
import { hermes } from './hermes';
import { jsonObjects } from './jsonObjects';
import { jsonTags } from './jsonTags';
import { kimi } from './kimi';
import { llama } from './llama';
import { mistral } from './mistral';
import { pythonic } from './pythonic';
import { qwen3Coder } from './qwen3Coder';
import { react } from './react';
import { xmlAgent } from './xmlAgent';

/** Special tokens first: where two families read a call at one place, the marked one is meant. */
export const FAMILIES: CallFamily[] = [
	deepseek,
	kimi,
	harmony,
	mistral,
	llama,
	jsonTags,
	hermes,
	glm,
	qwen3Coder,
	claudeXml,
	xmlAgent,
	react,
	pythonic,
	asked,
	jsonObjects,
];

/** How the families' special tokens end, once each. */
export const TOKEN_ENDS = [...new Set(FAMILIES.flatMap((family) => family.tokenEnds ?? []))];
/** The families' reasoning formats, read whatever the model (a reasoning tag is no call). */
export const REASONING_FORMATS = FAMILIES.flatMap((family) => family.reasoning ?? []);
/** Every reasoning tag pair, once each. */
export const REASONING_TAGS = [
	...new Map(REASONING_FORMATS.flatMap((format) => format.tags ?? [])).entries(),
];
/** The reasoning formats of channels (special tokens around reasoning and answer). */
export const CHANNELS = REASONING_FORMATS.flatMap((format) => format.channels ?? []);

/**
 * The families an answer of these models may be written in: where every model the answer may
 * come from is of a known family, those (and the asked JSON and its shapes, which every model was
 * asked for); else all of them.
 */
/** The lists chosen, by the models' names: one list per choice, so that caches keyed by it hit. */
const CHOSEN = new Map<string, CallFamily[]>();

export function familiesFor(models: string[] | undefined): CallFamily[] {
	if (!models?.length) return FAMILIES;
	const known = models.map((model) => FAMILIES.filter((family) => family.models?.test(model)));
	if (known.some((families) => !families.length)) return FAMILIES;
	const chosen = new Set([...known.flat(), asked, jsonObjects]);
	const names = FAMILIES.filter((family) => chosen.has(family));
	const key = names.map((family) => family.name).join(' ');
	if (!CHOSEN.has(key)) CHOSEN.set(key, names);
	return CHOSEN.get(key)!;
}
