/** Ordinary answers in prose: meeting notes, tables, lists, emails, brackets and braces in text. */
import { answer, written, type OrdinaryAnswer } from './ordinary-answers.tools';

export const PROSE: OrdinaryAnswer[] = [
	answer(
		'meeting notes with action items',
		'mail',
		written`## Weekly sync — 14 March

**Attendees:** Priya, Tom, Lea

**Decisions**
- Move the release to Thursday.
- Keep the old webhook URL for one more month.

**Action items**
- [ ] Tom: send_email to the customers about the new date (by Tuesday)
- [ ] Lea: create_ticket for the flaky login test
- [x] Priya: update the status page`,
	),
	answer(
		'a markdown table of tools',
		'weather',
		written`| Tool | What it does | Typical input |
|------|--------------|---------------|
| get_weather | current conditions | ˋ{"city": "Paris"}ˋ |
| search_docs | searches the handbook | ˋ{"query": "vacation policy"}ˋ |

Both return JSON; the agent sees the result as text.`,
	),
	answer(
		'a numbered list of steps',
		'math',
		written`1. Open the workflow and add a **Code** node.
2. Name it ˋaddˋ and paste ˋreturn [{ json: { sum: $json.a + $json.b } }];ˋ
3. Connect it after the trigger.
4. Click **Test workflow**: the output shows ˋ{"sum": 5}ˋ for ˋa = 2ˋ and ˋb = 3ˋ.`,
	),
	answer(
		'a short factual answer',
		'weather',
		written`Paris is in the Central European Time zone (UTC+1, UTC+2 in summer).`,
	),
	answer(
		'an apology without a tool',
		'weather',
		written`I can't check live weather without looking it up, but in April Lisbon usually sees highs around 20 °C and some rain.`,
	),
	answer(
		'an email draft',
		'mail',
		written`Subject: Your ticket #4821 is resolved

Hi Marta,

Thanks for your patience. The sync error you reported was caused by an expired token; we renewed it and your data is up to date again.

If anything still looks off, just reply to this email and we'll reopen the ticket.

Best,
Support team`,
	),
	answer(
		'braces in prose',
		'math',
		written`Curly braces {like these} group things in many languages, and square brackets [1, 2, 3] make lists; in n8n, double braces {{ }} mark an expression.`,
	),
	answer(
		'a template with placeholders',
		'mail',
		written`Dear {name},

Your order {order_id} ships on {date}. Reply to this message if you need to change the address.

{signature}`,
	),
	answer(
		'a bracketed citation list',
		'weather',
		written`Sources: [1] Met Office climate tables, [2] NOAA normals 1991–2020, [3] the city's open data portal. Temperatures in [2] are monthly means.`,
	),
	answer(
		'a comparison with bold and italics',
		'math',
		written`**Option A** is faster to build, *but* every change needs a redeploy. **Option B** takes a day longer and lets editors change the lookup table themselves. I'd pick B.`,
	),
	answer(
		'a nested list with code terms',
		'weather',
		written`- Weather
  - ˋget_weather(city)ˋ: now
  - ˋget_forecast(city, days)ˋ: later days
- Docs
  - ˋsearch_docs(query)ˋ: full text
  - ˋget_page(id)ˋ: one page`,
	),
	answer(
		'a Q&A pair in plain text',
		'math',
		written`Q: Why does 0.1 + 0.2 print 0.30000000000000004?
A: Binary floating point cannot represent 0.1 exactly; round for display with toFixed(2) or use integers (cents).`,
	),
	answer(
		'a changelog',
		'mail',
		written`## 2.3.0
### Added
- ˋsend_emailˋ accepts ˋccˋ and ˋbccˋ.
### Fixed
- ˋcreate_ticketˋ no longer drops the priority when it is "high".
### Changed
- The default subject is now "(no subject)".`,
	),
	answer(
		'an answer that starts with a colon line and a quote',
		'weather',
		written`> "The best time to visit is late spring."

That's the usual advice: fewer crowds, mild weather, long days.`,
	),
	answer(
		'a status report with emoji',
		'mail',
		written`✅ Emails: 128 sent, 2 bounced
⚠️ Tickets: 3 open (1 high)
❌ Backups: last night's run failed — see ticket HD-912`,
	),
	answer(
		'a definition list in markdown',
		'math',
		written`**lookup**
: finds a word's meaning in the glossary

**add**
: sums two numbers

Both are Code tools in the workflow.`,
	),
	answer(
		'an answer in German with a table',
		'weather',
		written`Hier die Übersicht:

| Stadt | Temperatur |
|---|---|
| Berlin | 12 °C |
| München | 9 °C |

Für aktuelle Werte frag mich nach dem Wetter einer bestimmten Stadt.`,
	),
	answer(
		'an answer in Japanese',
		'weather',
		written`東京の4月の平均気温は約15℃です。桜の季節なので、薄手の上着があると便利です。`,
	),
	answer(
		'math with LaTeX',
		'math',
		written`The sum of the first $n$ integers is $\frac{n(n+1)}{2}$, so for $n = 100$ you get $5050$. In display form:

$$\sum_{k=1}^{n} k = \frac{n(n+1)}{2}$$`,
	),
	answer('a one-word answer', 'math', written`Yes.`),
	answer('an answer that is a number', 'math', written`42`),
	answer(
		'a sentence naming both tools',
		'mail',
		written`I didn't use send_email or create_ticket here because you only asked how they differ: send_email notifies someone right away, create_ticket records the issue in the helpdesk queue.`,
	),
	answer(
		'a diff',
		'math',
		written`ˋˋˋdiff
-function add(a, b) { return a - b; }
+function add(a, b) { return a + b; }
ˋˋˋ

The sign was flipped.`,
	),
	answer(
		'a stack trace explained',
		'weather',
		written`ˋˋˋ
TypeError: Cannot read properties of undefined (reading 'name')
    at get_weather (/app/tools.js:12:24)
    at processTicksAndRejections (node:internal/process/task_queues:95:5)
ˋˋˋ

ˋresponse.cityˋ is undefined when the API returns an error; check ˋresponse.okˋ first.`,
	),
	answer(
		'an answer with XML-like tags that are no markers',
		'weather',
		written`Wrap the text in <b>bold</b> or <em>emphasis</em>; in your prompt you can also use <context>...</context> and <question>...</question> tags to separate the parts.`,
	),
];
