/**
 * The JSON answers' pure parts: extraction (fenced, bare, surrounded by text), the schema made
 * from an example, validation with the problems by path, and only the harmless coercions.
 */
import {
	displayPath,
	extractJson,
	schemaFromExample,
	validateJson,
} from '../../nodes/AgentPlatform/helpers/output/jsonValidation';
import { generatedFilesOf } from '../../nodes/AgentPlatform/helpers/runs/generatedFiles';

describe('extractJson', () => {
	it('takes a fenced block, then the whole text, then the span between the outer brackets', () => {
		expect(extractJson('Sure:\n```json\n{"a": 1}\n```\nDone.')).toEqual({
			ok: true,
			value: { a: 1 },
		});
		expect(extractJson('```\n[1, 2]\n```')).toEqual({ ok: true, value: [1, 2] });
		expect(extractJson('  {"a": [1]}  ')).toEqual({ ok: true, value: { a: [1] } });
		expect(extractJson('Here it is: {"a": {"b": 2}} — enjoy')).toEqual({
			ok: true,
			value: { a: { b: 2 } },
		});
		expect(extractJson('{"a": ')).toMatchObject({
			ok: false,
			problem: expect.stringMatching(/^The answer is not valid JSON/),
		});
		expect(extractJson('   ')).toEqual({
			ok: false,
			problem: 'The answer is empty: no JSON found',
		});
	});
});

describe('schemaFromExample', () => {
	it("requires every field, with the example's types, arrays by their first element", () => {
		expect(
			schemaFromExample({ name: 'x', n: 1, ok: true, tags: ['a'], any: null, inner: { b: 2 } }),
		).toEqual({
			type: 'object',
			properties: {
				name: { type: 'string' },
				n: { type: 'number' },
				ok: { type: 'boolean' },
				tags: { type: 'array', items: { type: 'string' } },
				any: {},
				inner: { type: 'object', properties: { b: { type: 'number' } }, required: ['b'] },
			},
			required: ['name', 'n', 'ok', 'tags', 'any', 'inner'],
		});
	});
});

describe('validateJson', () => {
	const schema = schemaFromExample({ age: 1, ok: true, name: 'x', list: [{ id: 1 }] });

	it('coerces only the harmless cases and lists each', () => {
		const result = validateJson({ age: '8', ok: 'false', name: 12, list: [{ id: '3' }] }, schema);
		expect(result).toEqual({
			value: { age: 8, ok: false, name: '12', list: [{ id: 3 }] },
			problems: [],
			coercions: ['age: "8" → 8', 'ok: "false" → false', 'name: 12 → "12"', 'list[0].id: "3" → 3'],
		});
	});

	it('lists what cannot be coerced by its path, and leaves the input untouched', () => {
		const input = { age: 'eight', ok: 'yes', list: [{ id: 1 }, {}] };
		const result = validateJson(input, schema);
		expect(result.problems).toEqual([
			'the answer: Instance does not have required property "name".',
			'age: Instance type "string" is invalid. Expected "number".',
			'ok: Instance type "string" is invalid. Expected "boolean".',
			'list[1]: Instance does not have required property "id".',
		]);
		expect(input).toEqual({ age: 'eight', ok: 'yes', list: [{ id: 1 }, {}] });
	});

	it('an integer is not made from a fraction', () => {
		expect(
			validateJson({ n: '2.5' }, { type: 'object', properties: { n: { type: 'integer' } } })
				.problems,
		).toEqual(['n: Instance type "string" is invalid. Expected "integer".']);
	});

	it('paths read like n8n expressions', () => {
		expect(displayPath('#')).toBe('the answer');
		expect(displayPath('#/a/0/b~1c')).toBe('a[0].b/c');
	});
});

describe('generatedFilesOf', () => {
	it('accepts URL strings and objects with any of the known field names, keeping other fields', () => {
		expect(
			generatedFilesOf({
				generated_files: [
					'https://cdn.example/a.png',
					{
						download_url: 'https://cdn.example/b.mp4',
						filename: 'b.mp4',
						mime_type: 'video/mp4',
						seconds: 4,
					},
					{ file_url: 'https://cdn.example/c', name: 'c.png' },
					{ thumbnail: 'no URL field' },
					42,
				],
			}),
		).toEqual([
			{ url: 'https://cdn.example/a.png', record: { url: 'https://cdn.example/a.png' } },
			{
				url: 'https://cdn.example/b.mp4',
				fileName: 'b.mp4',
				mimeType: 'video/mp4',
				record: {
					url: 'https://cdn.example/b.mp4',
					download_url: 'https://cdn.example/b.mp4',
					filename: 'b.mp4',
					mime_type: 'video/mp4',
					seconds: 4,
				},
			},
			{
				url: 'https://cdn.example/c',
				fileName: 'c.png',
				mimeType: undefined,
				record: { url: 'https://cdn.example/c', file_url: 'https://cdn.example/c', name: 'c.png' },
			},
		]);
		expect(generatedFilesOf({})).toEqual([]);
	});
});
