/**
 * The emulator's structured answers (dev/emulator/toolsProtocolModel.ts, schemaFilling.ts,
 * fieldKinds.ts) on texts written for this test (structuredCorpus.ts), sent as n8n's Information
 * Extractor, Text Classifier and Sentiment Analysis send them: every field the answer fills holds
 * a value of its kind found in the text (checked here by the test's own rules, not the emulator's),
 * the values a careful reader finds are found, a category follows the words of its description.
 */
import { scriptedModelAnswer } from '../../../dev/emulator/toolsProtocolModel';
import { CLASSIFICATION_CASES, SENTIMENT_CASES, SUPPORT_SALES_BILLING } from './labelCorpus';
import { EXTRACTION_CASES, SCHEMAS } from './structuredCorpus';

/** LangChain's StructuredOutputParser instructions, as n8n's chains send them. */
const format = (schema: object) =>
	`You must format your output as a JSON value that adheres to a given "JSON Schema" instance.\n\n` +
	`"JSON Schema" is a declarative language that allows you to annotate and validate JSON documents.\n\n` +
	`Here is the JSON Schema instance your output must adhere to. Include the enclosing markdown codeblock:\n` +
	'```json\n' +
	JSON.stringify(schema) +
	'\n```\n';

const EXTRACTOR_PROMPT =
	"You are an expert extraction algorithm.\nOnly extract relevant information from the text.\nIf you do not know the value of an attribute asked to extract, you may omit the attribute's value.";

function answer(system: string, text: string): Record<string, unknown> {
	const output = scriptedModelAnswer([
		{ role: 'system', content: system },
		{ role: 'user', content: text },
	])!.output;
	return JSON.parse(/```json\n([\s\S]*)\n```/.exec(output)![1]) as Record<string, unknown>;
}

const GREETINGS =
	/^(?:Hi|Hello|Dear|Thanks|Regards|Best|Cheers|I|I'm|I’m|The|This|Please|Our|We|My)$/;
const squeeze = (text: string) => text.replace(/[\s,]/g, '');

/** Whether a value is of the field's kind and comes from the text (the test's own rules). */
function ofItsKind(field: string, value: unknown, text: string): boolean {
	if (value === null || value === '') return true;
	const inText = typeof value === 'string' && text.includes(value);
	switch (field) {
		case 'email':
			return typeof value === 'string' && /^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i.test(value) && inText;
		case 'amount':
			return (
				typeof value === 'number' &&
				value > 0 &&
				squeeze(text).includes(String(value).split('.')[0])
			);
		case 'rating':
			return typeof value === 'number' && value >= 1 && value <= 5;
		case 'currency':
			return typeof value === 'string' && /^[A-Z]{3}$/.test(value);
		case 'due_date':
		case 'order_date':
			return (
				typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && !isNaN(Date.parse(value))
			);
		case 'invoice_number':
		case 'order_id':
			return typeof value === 'string' && /\d/.test(value) && !/\s/.test(value) && inText;
		case 'phone':
			return typeof value === 'string' && (value.match(/\d/g)?.length ?? 0) >= 7 && inText;
		case 'customer_name':
		case 'name':
		case 'reviewer':
			return (
				typeof value === 'string' &&
				inText &&
				/^\p{Lu}[\p{L}'’-]+(?: \p{Lu}[\p{L}'’-]+){0,3}$/u.test(value) &&
				!value.split(' ').some((word) => GREETINGS.test(word))
			);
		case 'company':
		case 'city':
			return (
				typeof value === 'string' &&
				inText &&
				/^\p{Lu}/u.test(value) &&
				!/^(?:I|I'm|I’m)\b/.test(value)
			);
		case 'issue':
			return typeof value === 'string' && inText && value.length > 10;
		default:
			return false;
	}
}

describe("the emulator's structured answers on texts it has not seen", () => {
	it(`holds ${EXTRACTION_CASES.length} extraction texts, 40 or more`, () => {
		expect(EXTRACTION_CASES.length).toBeGreaterThanOrEqual(40);
	});

	it.each(EXTRACTION_CASES.map((c, i) => [`${c.kind} ${i + 1}`, c]))(
		'Information Extractor, %s: no field of the wrong kind, the expected values found',
		(_name, { kind, text, expected, absent = [] }) => {
			const value = answer(`${EXTRACTOR_PROMPT}\n${format(SCHEMAS[kind])}`, text);
			const wrong = Object.entries(value).filter(([field, v]) => !ofItsKind(field, v, text));
			expect(wrong).toEqual([]);
			expect(value).toMatchObject(expected);
			expect(absent.filter((field) => value[field] !== undefined && value[field] !== null)).toEqual(
				[],
			);
		},
	);

	it.each(CLASSIFICATION_CASES.map((c) => [c.text, c.category]))(
		'Text Classifier: %s → %s',
		(text, category) => {
			const properties = Object.fromEntries(
				SUPPORT_SALES_BILLING.map(({ name, description }) => [
					name,
					{
						type: 'boolean',
						description: `Should be true if the input has category "${name}" (description: ${description})`,
					},
				]),
			);
			const value = answer(
				`Please classify the text provided by the user into one of the following categories: ${SUPPORT_SALES_BILLING.map((c) => c.name).join(', ')}, and use the provided formatting instructions below. Don't explain, and only output the json.\n${format({ type: 'object', properties })}`,
				text,
			);
			expect(
				Object.entries(value)
					.filter(([, v]) => v === true)
					.map(([k]) => k),
			).toEqual([category]);
		},
	);

	it.each(SENTIMENT_CASES.map((c) => [c.text, c.sentiment]))(
		'Sentiment Analysis: %s → %s',
		(text, sentiment) => {
			const schema = {
				type: 'object',
				properties: {
					sentiment: { type: 'string', enum: ['Positive', 'Neutral', 'Negative'] },
					strength: { type: 'number', minimum: 0, maximum: 1 },
					confidence: { type: 'number', minimum: 0, maximum: 1 },
				},
				required: ['sentiment', 'strength', 'confidence'],
			};
			const value = answer(
				`You are highly intelligent and accurate sentiment analyzer.\n${format(schema)}`,
				text,
			);
			expect(value.sentiment).toBe(sentiment);
			expect(value.strength).toEqual(expect.any(Number));
		},
	);
});
