/**
 * Code streams as it is written (issue 50): a code answer in a fence, streamed in 20-character
 * pieces with two tools bound, is on screen progressively: by the time three quarters of it were
 * sent, at least half of it was shown; and all of it at the end. In every family setting: no
 * reasoning, reasoning first (`<think>`, `<seed:think>`, harmony's channels), and reasoning opened
 * in the prompt (only `</think>` comes, the model's family known from its name).
 */
import { LONG, TOOL_SETS } from './ordinary-answers.corpus';
import { JAVASCRIPT } from './ordinary-answers.short';
import { written } from './ordinary-answers.tools';
import { chunks, streamedThrough } from './ordinary-answers.streaming';

/** The case: a 700-character Python answer. */
const PYTHON_700 = written`Here's a script that fetches the weather for a list of cities and prints a table:

ˋˋˋpython
import requests

CITIES = ["Paris", "Berlin", "Madrid", "Rome"]


def get_weather(city):
    response = requests.get(
        "https://api.example.com/weather",
        params={"city": city, "unit": "celsius"},
        timeout=5,
    )
    response.raise_for_status()
    return response.json()["temperature"]


def main():
    print(f"{'City':<10} {'Temp':>6}")
    for city in CITIES:
        print(f"{city:<10} {get_weather(city):>6.1f}")


if __name__ == "__main__":
    main()
ˋˋˋ

Install the dependency with ˋpip install requestsˋ first.`;

const CODE_ANSWERS: Array<[string, string]> = [
	['a 700-character Python answer', PYTHON_700],
	[
		'a TypeScript answer with tests',
		JAVASCRIPT.find((a) => a.about.startsWith('typescript: tools'))!.answer,
	],
	['a 20 KB Python module', LONG.find((a) => a.about === 'a 20 KB Python module')!.answer],
	['a 10 KB guide in many languages', LONG.find((a) => a.about === 'a 10 KB guide')!.answer],
];

/** [setting, what comes before the answer, the tag a stream starts inside reasoning until, what comes after] */
const SETTINGS: Array<[string, string, string | undefined, string]> = [
	['no reasoning', '', undefined, ''],
	['<think> first', '<think>\nThe user wants a script; no tool call.\n</think>\n\n', undefined, ''],
	['reasoning opened in the prompt', 'The user wants a script.\n</think>\n\n', '</think>', ''],
	['<seed:think> first', '<seed:think>A script, no tool.</seed:think>', undefined, ''],
	[
		'harmony channels',
		'<|channel|>analysis<|message|>A script, no tool.<|end|><|start|>assistant<|channel|>final<|message|>',
		undefined,
		'<|return|>',
	],
];

const CASES = CODE_ANSWERS.flatMap(([about, answer]) =>
	SETTINGS.map(
		([setting, before, until, after]) =>
			[`${about}, ${setting}`, answer, before, until, after] as const,
	),
);

describe('a code answer streams as it is written', () => {
	it.each(CASES)(
		'%s: half shown when three quarters were sent, all at the end',
		(_, answer, before, until, after) => {
			const reply = `${before}${answer}${after}`;
			const pieces = chunks(reply, 20);
			const { progress, atEnd } = streamedThrough(pieces, TOOL_SETS.weather, until);
			// the piece by which the reasoning and three quarters of the answer had been sent
			const sent = before.length + Math.floor(answer.length * 0.75);
			const shownThen = progress[Math.ceil(sent / 20) - 1];
			// in per cent of the answer
			expect(Math.floor((100 * shownThen) / answer.length)).toBeGreaterThanOrEqual(50);
			expect(atEnd).toBe(answer);
		},
	);
});
