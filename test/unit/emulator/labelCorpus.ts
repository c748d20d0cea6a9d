/**
 * Realistic English texts for the emulator's Text Classifier and Sentiment Analysis answers, with
 * the category a careful reader picks by the words of each category's description.
 */

/** Text Classifier cases: the text, the categories (name and description) and the one it belongs to. */
export const SUPPORT_SALES_BILLING = [
	{
		name: 'Sales',
		description:
			'Questions about prices, plans, quotes, discounts or buying more seats or licences',
	},
	{
		name: 'Support',
		description: 'How-to questions and problems using the product: errors, log-in, settings, bugs',
	},
	{ name: 'Billing', description: 'Invoices, charges, refunds, receipts and payments' },
];

export const CLASSIFICATION_CASES: Array<{ text: string; category: string }> = [
	{
		text: 'How do I reset my password? The link in the e-mail does not work.',
		category: 'Support',
	},
	{ text: 'How can I add a second user to my workspace?', category: 'Support' },
	{
		text: 'What would 50 seats on the Enterprise plan cost per year? Do you offer a discount for non-profits?',
		category: 'Sales',
	},
	{
		text: 'I was charged twice this month, please refund one of the payments.',
		category: 'Billing',
	},
	{ text: 'Could you send me a quote for upgrading our team to the Pro plan?', category: 'Sales' },
	{
		text: 'The dashboard shows an error 502 whenever I open the reports tab.',
		category: 'Support',
	},
	{ text: 'Where can I download the receipt for my last payment?', category: 'Billing' },
	{ text: 'Where do I change the language of the interface in the settings?', category: 'Support' },
	{
		text: 'We would like to buy 20 more licences before the end of the quarter.',
		category: 'Sales',
	},
	{ text: 'The invoice INV-2291 has the wrong VAT number on it.', category: 'Billing' },
];

export const SENTIMENT_CASES: Array<{
	text: string;
	sentiment: 'Positive' | 'Neutral' | 'Negative';
}> = [
	{
		text: 'Absolutely love this coffee grinder! Quiet, fast and easy to clean.',
		sentiment: 'Positive',
	},
	{ text: 'Arrived two weeks late and the box was damaged. Disappointed.', sentiment: 'Negative' },
	{
		text: "Worst customer service I've ever had. They hung up on me twice.",
		sentiment: 'Negative',
	},
	{ text: 'The meeting has been moved to Thursday at 10 am in room B.', sentiment: 'Neutral' },
	{ text: 'The staff were wonderful and the room was spotless, thank you!', sentiment: 'Positive' },
	{ text: 'The app keeps logging me out and support never answers.', sentiment: 'Negative' },
];
