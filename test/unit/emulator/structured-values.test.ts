/**
 * The stand-in's structured answers (dev/emulator/structuredValues.ts, docs/emulator.md), sent as
 * n8n's Information Extractor, Structured Output Parser, Text Classifier and Sentiment Analysis
 * send them (LangChain's format instructions): every field a value of the schema's type, empty
 * where the stand-in cannot know; the classifier's category the one whose name and description
 * share the most words with the text. Schemas and expected answers are written here by hand.
 */
import { scriptedModelAnswer } from '../../../dev/emulator/toolsProtocolModel';

/** LangChain's StructuredOutputParser instructions, as n8n's chains send them. */
const format = (schema: object) =>
	`You must format your output as a JSON value that adheres to a given "JSON Schema" instance.\n\n` +
	`Here is the JSON Schema instance your output must adhere to. Include the enclosing markdown codeblock:\n` +
	'```json\n' +
	JSON.stringify(schema) +
	'\n```\n';

function answer(schema: object, text: string, system = 'You are an expert extraction algorithm.') {
	const output = scriptedModelAnswer([
		{ role: 'system', content: `${system}\n${format(schema)}` },
		{ role: 'user', content: text },
	])!.output;
	return JSON.parse(/^```json\n([\s\S]*)\n```$/.exec(output)![1]) as unknown;
}

const TICKET =
	'Subject: Cannot log in\nHi, since Monday I cannot log into the app (order ORD-55813). ' +
	'Please call me on +44 20 7946 0958. Thanks, Oliver Grant (oliver.grant@fastmail.com)';

describe('structured answers: values of the schema’s types, empty where the stand-in cannot know', () => {
	it("the Information Extractor's attributes (zod, as n8n builds them): optional ones empty or left out", () => {
		const schema = {
			type: 'object',
			properties: {
				name: { type: 'string', description: 'Who wrote the ticket' },
				email: { type: 'string', description: 'Their e-mail address' },
				order_id: { type: 'string' },
				phone: { type: 'string' },
				age: { type: 'number' },
				callback_wanted: { type: 'boolean' },
				opened_on: { type: 'string', format: 'date' },
			},
			additionalProperties: false,
			$schema: 'http://json-schema.org/draft-07/schema#',
		};
		expect(answer(schema, TICKET)).toEqual({
			name: '',
			email: '',
			order_id: '',
			phone: '',
		});
	});

	it('required fields: 0, the minimum, false, [], nested objects; null wherever null is allowed', () => {
		const schema = {
			type: 'object',
			properties: {
				summary: { type: 'string' },
				priority: { type: 'integer', minimum: 1, maximum: 5 },
				amount: { type: 'number' },
				urgent: { type: 'boolean' },
				tags: { type: 'array', items: { type: 'string' } },
				due: { type: 'string', format: 'date' },
				customer: {
					type: 'object',
					properties: { name: { type: 'string' }, vip: { type: 'boolean' } },
					required: ['vip'],
				},
				reference: { type: ['string', 'null'] },
				score: { anyOf: [{ type: 'number' }, { type: 'null' }] },
			},
			required: ['summary', 'priority', 'amount', 'urgent', 'tags', 'due', 'customer', 'score'],
		};
		expect(answer(schema, TICKET)).toEqual({
			summary: '',
			priority: 1,
			amount: 0,
			urgent: false,
			tags: [],
			due: '',
			customer: { name: '', vip: false },
			reference: null,
			score: null,
		});
	});

	it('an enum takes the value the text names as a word, else its first value when required', () => {
		const schema = {
			type: 'object',
			properties: {
				channel: { type: 'string', enum: ['email', 'phone', 'chat'] },
				language: { type: 'string', enum: ['English', 'German'] },
				team: { type: 'string', enum: ['Sales', 'Support'] },
			},
			required: ['channel', 'language'],
		};
		expect(answer(schema, 'Please call me back by phone.')).toEqual({
			channel: 'phone',
			language: 'English',
		});
	});

	it('Sentiment Analysis: the category the text names, else the first one', () => {
		const schema = {
			type: 'object',
			properties: {
				sentiment: { type: 'string', enum: ['Positive', 'Neutral', 'Negative'] },
				strength: { type: 'number', minimum: 0, maximum: 1 },
				confidence: { type: 'number', minimum: 0, maximum: 1 },
			},
			required: ['sentiment', 'strength', 'confidence'],
		};
		const system = 'You are highly intelligent and accurate sentiment analyzer.';
		expect(answer(schema, 'Overall a neutral experience.', system)).toEqual({
			sentiment: 'Neutral',
			strength: 0,
			confidence: 0,
		});
		expect(answer(schema, 'Worst service ever.', system)).toEqual({
			sentiment: 'Positive',
			strength: 0,
			confidence: 0,
		});
	});
});

describe("the Text Classifier's stand-in: the category sharing the most words with the text", () => {
	/** n8n's Text Classifier schema: a boolean per category, `fallback` with "Other". */
	const classifier = (categories: Array<[string, string]>, fallback: boolean) => ({
		type: 'object',
		properties: {
			...Object.fromEntries(
				categories.map(([name, description]) => [
					name,
					{
						type: 'boolean',
						description: `Should be true if the input has category "${name}" (description: ${description})`,
					},
				]),
			),
			...(fallback
				? {
						fallback: {
							type: 'boolean',
							description: 'Should be true if none of the other categories apply',
						},
					}
				: {}),
		},
	});
	const CATEGORIES: Array<[string, string]> = [
		['Billing', 'invoices, refunds, charges and payments'],
		['Support', 'problems logging in, errors and bugs in the app'],
		['Sales', 'prices, plans and quotes for more seats'],
	];
	const system =
		'Please classify the text provided by the user into one of the following categories';

	it.each([
		// shared words counted by hand: refunds, payments → Billing (2)
		['Where are my refunds? Two payments went missing.', 'Billing'],
		// errors, app, logging → Support (3); no word of Billing or Sales
		['The app shows errors when logging in since the update.', 'Support'],
		// quotes, plans, seats → Sales (3; "more" is a common word); app → Support (1)
		['Send quotes for both plans with ten more seats for the app.', 'Sales'],
	])('%s → %s', (text, category) => {
		const value = answer(classifier(CATEGORIES, true), text, system) as Record<string, boolean>;
		expect(value).toEqual({
			Billing: false,
			Support: false,
			Sales: false,
			fallback: false,
			[category]: true,
		});
	});

	it('no shared word: the fallback where there is one, else no category', () => {
		const text = 'Can you recommend a good book about otters?';
		expect(answer(classifier(CATEGORIES, true), text, system)).toEqual({
			Billing: false,
			Support: false,
			Sales: false,
			fallback: true,
		});
		expect(answer(classifier(CATEGORIES, false), text, system)).toEqual({
			Billing: false,
			Support: false,
			Sales: false,
		});
	});
});
