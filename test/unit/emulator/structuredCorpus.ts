/**
 * Realistic English texts for the emulator's structured answers (Information Extractor, Text
 * Classifier, Sentiment Analysis): billing e-mails, invoices, support tickets, reviews. Written for
 * these tests, not taken from the emulator's code: `expected` is what a careful reader finds in the
 * text; a field not listed there may be left out but never filled with a value of another kind.
 */

export interface ExtractionCase {
	kind: 'email' | 'invoice' | 'ticket' | 'review';
	text: string;
	expected: Record<string, string | number>;
	/** fields a careful reader leaves empty: the text holds no value of their kind for them */
	absent?: string[];
}

/** The Information Extractor's schema for billing e-mails and invoices (attributes, as n8n builds them). */
export const BILLING_SCHEMA = {
	type: 'object',
	properties: {
		customer_name: { type: 'string', description: "The customer's full name" },
		company: { type: 'string', description: 'The company the customer works for' },
		email: { type: 'string', description: "The customer's e-mail address" },
		invoice_number: { type: 'string', description: 'The invoice number the text refers to' },
		amount: { type: 'number', description: 'The amount of money in question' },
		currency: { type: 'string', description: 'Three-letter currency code' },
		due_date: { type: 'string', description: 'When the payment is due', format: 'date' },
	},
};

/** A support ticket's schema. */
export const TICKET_SCHEMA = {
	type: 'object',
	properties: {
		name: { type: 'string', description: 'Name of the person who wrote the ticket' },
		email: { type: 'string', description: 'Their e-mail address' },
		order_id: {
			type: 'string',
			description: 'The order, account, case or ticket number mentioned',
		},
		phone: { type: 'string', description: 'A phone number to call back' },
		issue: { type: 'string', description: 'The problem in one sentence' },
	},
	required: ['issue'],
};

/** A review's schema. */
export const REVIEW_SCHEMA = {
	type: 'object',
	properties: {
		reviewer: { type: 'string', description: "The reviewer's name" },
		rating: { type: 'number', description: 'Stars given, 1 to 5', minimum: 1, maximum: 5 },
		city: { type: 'string', description: 'Where the reviewer lives' },
		order_date: { type: 'string', description: 'When the order was placed', format: 'date' },
	},
};

export const SCHEMAS = {
	email: BILLING_SCHEMA,
	invoice: BILLING_SCHEMA,
	ticket: TICKET_SCHEMA,
	review: REVIEW_SCHEMA,
};

export const EXTRACTION_CASES: ExtractionCase[] = [
	// billing e-mails
	{
		kind: 'email',
		text: "Hello,\n\nI'm Laura Becker from Nordlicht Logistics GmbH. This is really frustrating: invoice INV-2291 charges us €1,480.00 although we cancelled the extra seats in March. Please send a corrected invoice to laura.becker@nordlicht-logistics.de before the due date of 2025-04-15.\n\nBest regards,\nLaura Becker",
		expected: {
			customer_name: 'Laura Becker',
			company: 'Nordlicht Logistics GmbH',
			email: 'laura.becker@nordlicht-logistics.de',
			invoice_number: 'INV-2291',
			amount: 1480,
			currency: 'EUR',
			due_date: '2025-04-15',
		},
	},
	{
		kind: 'email',
		text: 'Hi team,\n\nwe were billed twice for order 88412 ($249.99 each time). Could you refund one of the charges? You can reach me at d.okafor@brightpath.io.\n\nThanks,\nDaniel Okafor\nBrightpath Media',
		expected: {
			customer_name: 'Daniel Okafor',
			email: 'd.okafor@brightpath.io',
			amount: 249.99,
			currency: 'USD',
		},
		absent: ['invoice_number', 'due_date'],
	},
	{
		kind: 'email',
		text: 'Dear Accounts,\n\nPlease find attached the remittance for invoice #40317. We paid £3,200 by bank transfer on 12 March 2025. Kind regards, Priya Raman, Finance Manager at Kestrel Analytics Ltd (priya.raman@kestrel-analytics.co.uk)',
		expected: {
			invoice_number: '40317',
			amount: 3200,
			currency: 'GBP',
			email: 'priya.raman@kestrel-analytics.co.uk',
			company: 'Kestrel Analytics Ltd',
		},
		absent: ['due_date'],
	},
	{
		kind: 'email',
		text: "Good morning, my name is Tomás Herrera. I still haven't received a receipt for my subscription payment of 59 EUR last week. My account e-mail is tomas.herrera@gmail.com. Thank you!",
		expected: {
			customer_name: 'Tomás Herrera',
			amount: 59,
			currency: 'EUR',
			email: 'tomas.herrera@gmail.com',
		},
	},
	{
		kind: 'email',
		text: 'Hello, the invoice you sent (INV-2024-0918) is addressed to the wrong company. It should be Greenfield Farms Inc, not Greenfield Foods. The total of $12,750.00 is correct. Payment is due by April 30, 2025.\n\nCheers,\nMarcus Liu',
		expected: {
			invoice_number: 'INV-2024-0918',
			amount: 12750,
			currency: 'USD',
			due_date: '2025-04-30',
			customer_name: 'Marcus Liu',
		},
	},
	{
		kind: 'email',
		text: 'Why was my card charged again? I cancelled last month and I am very annoyed. Please stop billing me.\n\n— Emma Schultz',
		expected: { customer_name: 'Emma Schultz' },
		absent: ['amount', 'invoice_number', 'company', 'email'],
	},
	{
		kind: 'email',
		text: 'Hi, could you confirm you received our payment for invoice 2025-117? Amount: 845.50 CHF, sent on 03.02.2025 from our UBS account. Regards, Jonas Weber (jonas.weber@alpenhof.ch)',
		expected: {
			amount: 845.5,
			currency: 'CHF',
			email: 'jonas.weber@alpenhof.ch',
			customer_name: 'Jonas Weber',
		},
	},
	{
		kind: 'email',
		text: 'To whom it may concern,\n\nour reference PO-55120 shows an overcharge of $318.40 on the last statement. I expect a credit note within 14 days.\n\nSincerely,\nRachel Adeyemi\nProcurement, Coastal Health Partners',
		expected: { amount: 318.4, currency: 'USD', customer_name: 'Rachel Adeyemi' },
	},
	{
		kind: 'email',
		text: 'hey, the discount code SPRING25 did not apply to my order and I paid the full 120 dollars. can you fix that? thanks, kim',
		expected: { amount: 120, currency: 'USD' },
		absent: ['invoice_number', 'customer_name', 'email'],
	},
	{
		kind: 'email',
		text: 'Dear Sir or Madam, I am writing about the late fee on my account ACC-77310. The payment was made on 2 January 2025, well before the deadline. Please remove the €25 fee. Yours faithfully, Margaret O’Neill',
		expected: { amount: 25, currency: 'EUR', customer_name: 'Margaret O’Neill' },
		absent: ['invoice_number', 'due_date'],
	},
	{
		kind: 'email',
		text: 'We want to upgrade from the Basic plan to Team for 15 seats. What would the yearly price be? Best, Hannah Fischer, Operations Lead at Lumen Studio',
		expected: { customer_name: 'Hannah Fischer' },
	},
	{
		kind: 'email',
		text: 'Hi! Just a quick note: the invoice number on your reminder (INV-3310) does not match the one we received (INV-3301). Which one should we pay? Thanks, Olivia Brooks — olivia@brookesdesign.com',
		expected: { email: 'olivia@brookesdesign.com', customer_name: 'Olivia Brooks' },
	},
	// invoices
	{
		kind: 'invoice',
		text: 'INVOICE\nInvoice number: INV-10452\nInvoice date: 2025-03-01\nDue date: 2025-03-31\nBill to: Sarah Whitfield\nCompany: Harbor Lane Bakery\nEmail: sarah@harborlanebakery.com\n\n2 x Espresso machine service   $180.00\nTotal due: $360.00',
		expected: {
			invoice_number: 'INV-10452',
			due_date: '2025-03-31',
			customer_name: 'Sarah Whitfield',
			company: 'Harbor Lane Bakery',
			email: 'sarah@harborlanebakery.com',
			amount: 360,
			currency: 'USD',
		},
	},
	{
		kind: 'invoice',
		text: 'Rechnung / Invoice\nInvoice No.: 2025-0042\nCustomer: Felix Braun\nFelix Braun IT Consulting\nAmount: EUR 2,150.00\nPayable by 15.05.2025\nIBAN DE89 3704 0044 0532 0130 00',
		expected: {
			invoice_number: '2025-0042',
			customer_name: 'Felix Braun',
			amount: 2150,
			currency: 'EUR',
			due_date: '2025-05-15',
		},
	},
	{
		kind: 'invoice',
		text: 'Tax invoice #TX-88-301\nIssued: 10 February 2025\nTo: Amelia Clarke, Clarke & Sons Ltd\namelia.clarke@clarkesons.co.uk\nConsulting, 12 hours at £95\nTotal: £1,140.00 (due 10 March 2025)',
		expected: {
			invoice_number: 'TX-88-301',
			amount: 1140,
			currency: 'GBP',
			email: 'amelia.clarke@clarkesons.co.uk',
			due_date: '2025-03-10',
		},
	},
	{
		kind: 'invoice',
		text: 'Invoice INV-7781 for Northwind Traders\nContact: Michael Chen (michael.chen@northwind.com)\nSubtotal: $4,200.00\nTax: $336.00\nTotal: $4,536.00\nDue: 2025-06-01',
		expected: {
			invoice_number: 'INV-7781',
			email: 'michael.chen@northwind.com',
			customer_name: 'Michael Chen',
			due_date: '2025-06-01',
		},
	},
	{
		kind: 'invoice',
		text: 'Invoice reference: 5531-A\nBilled to: Lucía Romero\nServices rendered in January: website maintenance\nAmount due: 780 EUR\nPlease pay within 30 days.',
		expected: { customer_name: 'Lucía Romero', amount: 780, currency: 'EUR' },
	},
	{
		kind: 'invoice',
		text: 'ACME Supplies Inc. — Invoice 990134\nShip to: Benjamin Stone, 42 Elm Street, Denver\nQty 3 toner cartridges @ $64.99\nInvoice total $194.97\nDue on 07/15/2025',
		expected: { invoice_number: '990134', amount: 194.97, currency: 'USD', due_date: '2025-07-15' },
	},
	{
		kind: 'invoice',
		text: 'Invoice number: INV-0007\nDate: 2025-01-20\nClient: Grace Kimura, Kimura Architects\nDesign review, fixed fee\nTotal amount: ¥180,000\nDue date: 2025-02-19',
		expected: {
			invoice_number: 'INV-0007',
			customer_name: 'Grace Kimura',
			amount: 180000,
			due_date: '2025-02-19',
		},
	},
	{
		kind: 'invoice',
		text: 'Pro forma invoice PF-2025-14 for Oakridge Dental Clinic. Contact person: Dr. Nina Patel, nina.patel@oakridgedental.com. Total: 2,600.00 USD, payable before March 3, 2025.',
		expected: {
			invoice_number: 'PF-2025-14',
			email: 'nina.patel@oakridgedental.com',
			amount: 2600,
			currency: 'USD',
			due_date: '2025-03-03',
		},
	},
	// support tickets
	{
		kind: 'ticket',
		text: "Subject: Can't log in since the update\n\nHi, since yesterday's update I can't log into the app; it says my password is wrong even after a reset. Order ID: ORD-55813. Please call me on +44 20 7946 0958.\n\nThanks,\nOliver Grant\noliver.grant@fastmail.com",
		expected: {
			name: 'Oliver Grant',
			email: 'oliver.grant@fastmail.com',
			order_id: 'ORD-55813',
			phone: '+44 20 7946 0958',
		},
	},
	{
		kind: 'ticket',
		text: 'My parcel with tracking number 1Z999AA10123456784 has not moved for a week. I need it for a wedding on Saturday. — Chloe Dubois, chloe.dubois@orange.fr',
		expected: { email: 'chloe.dubois@orange.fr', name: 'Chloe Dubois' },
	},
	{
		kind: 'ticket',
		text: 'The export to CSV fails with "Error 500" every time I select more than 1000 rows. Account #A-20931. This is blocking our monthly report.',
		expected: { order_id: 'A-20931' },
	},
	{
		kind: 'ticket',
		text: 'Hello support, how do I change the e-mail address on my account? I moved from jan.kowalski@old-mail.pl to a new address. Regards, Jan Kowalski',
		expected: { name: 'Jan Kowalski', email: 'jan.kowalski@old-mail.pl' },
	},
	{
		kind: 'ticket',
		text: 'Our team cannot sync the calendar integration since Monday. Ticket 48812 was closed without a fix. Please reopen it. Phone: (555) 201-3344. Ahmed Hassan, IT admin at Sunrise Hotels',
		expected: { order_id: '48812', phone: '(555) 201-3344', name: 'Ahmed Hassan' },
	},
	{
		kind: 'ticket',
		text: 'The mobile app crashes whenever I open the settings page on Android 14. Nothing else to add, please help.',
		expected: {},
	},
	{
		kind: 'ticket',
		text: 'Hi there! Order #77120 arrived with a cracked screen. I attached photos. I would like a replacement, not a refund. Best, Sofia Rossi (sofia.rossi@libero.it, +39 02 1234 5678)',
		expected: { order_id: '77120', email: 'sofia.rossi@libero.it', name: 'Sofia Rossi' },
	},
	{
		kind: 'ticket',
		text: 'Where can I download last year’s invoices? I need them for my tax return by 2025-04-30. Thanks a lot, Peter Novak',
		expected: { name: 'Peter Novak' },
	},
	{
		kind: 'ticket',
		text: "I was promised a call back yesterday and nobody called. My case number is CS-4410-22. I'm getting really frustrated. William Turner, 0161 496 0733",
		expected: { order_id: 'CS-4410-22', name: 'William Turner' },
	},
	{
		kind: 'ticket',
		text: 'Two-factor codes are not arriving by SMS. I tried three times this morning. user: maya.lindqvist@outlook.com',
		expected: { email: 'maya.lindqvist@outlook.com' },
	},
	// reviews
	{
		kind: 'review',
		text: 'Absolutely love this coffee grinder! Quiet, fast and easy to clean. 5 stars from me. — Isabella Moore, Austin',
		expected: { rating: 5, reviewer: 'Isabella Moore' },
	},
	{
		kind: 'review',
		text: 'Ordered on 2025-02-14, arrived two weeks late and the box was damaged. 1 star. Disappointed. Greg Hall from Leeds',
		expected: { rating: 1, order_date: '2025-02-14', reviewer: 'Greg Hall', city: 'Leeds' },
	},
	{
		kind: 'review',
		text: 'Decent headphones for the price. The sound is fine but the ear pads get warm. I would give it 3/5.',
		expected: { rating: 3 },
	},
	{
		kind: 'review',
		text: 'The hotel staff were wonderful and the room was spotless. Breakfast could be better. Four stars. Anna Kowalczyk, Warsaw',
		expected: { reviewer: 'Anna Kowalczyk' },
	},
	{
		kind: 'review',
		text: "Worst customer service I've ever had. They hung up on me twice. Never again.",
		expected: {},
		absent: ['rating', 'reviewer', 'city'],
	},
	{
		kind: 'review',
		text: 'I bought the standing desk on March 3, 2025 and it still wobbles after tightening every screw. 2 stars. Posted by Luke Bennett in Bristol',
		expected: { order_date: '2025-03-03', rating: 2, reviewer: 'Luke Bennett', city: 'Bristol' },
	},
	{
		kind: 'review',
		text: 'Great value! The blender crushes ice in seconds. Would recommend to anyone. Rated 5 out of 5 by Fatima Zahra.',
		expected: { rating: 5, reviewer: 'Fatima Zahra' },
	},
	{
		kind: 'review',
		text: 'It works. Nothing special, nothing bad. Delivery took the promised 3 days.',
		expected: {},
	},
	{
		kind: 'review',
		text: 'Our family stayed three nights in Lisbon at this guesthouse. Helpful host, clean rooms, noisy street. 4 stars overall. Karen Mitchell',
		expected: { rating: 4, reviewer: 'Karen Mitchell' },
	},
	{
		kind: 'review',
		text: 'The app keeps logging me out and support never answers. Cancelled my subscription. Disappointing.',
		expected: {},
	},
];
