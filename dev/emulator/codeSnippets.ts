/**
 * The scripted model's answer to a request for code ("Write a Python function that reverses a
 * string"): a short snippet for the task the request names, in the language it asks for (Python
 * when it names none), in a fence. Tasks it has no snippet for get a stub named after the task,
 * said to be one: the emulator is a stand-in, not a model that writes code.
 */

/** Whether the message asks for code. */
export function asksForCode(question: string): boolean {
	return (
		/\b(?:write|give me|show me|create|implement|generate|code|draft)\b[\s\S]*\b(?:function|code|script|snippet|program|class|method|query|regex|one-liner)\b/i.test(
			question,
		) || /\b(?:function|snippet|script)\b[\s\S]*\bthat\b/i.test(question)
	);
}

type Language = 'python' | 'javascript' | 'typescript' | 'bash' | 'sql' | 'go' | 'ruby' | 'java';

const LANGUAGES: Array<[RegExp, Language]> = [
	[/\btypescript\b|\bts\b/i, 'typescript'],
	[/\bjavascript\b|\bjs\b|\bnode(?:\.js)?\b/i, 'javascript'],
	[/\bpython\b/i, 'python'],
	[/\bbash\b|\bshell\b|\bsh\b/i, 'bash'],
	[/\bsql\b|\bquery\b/i, 'sql'],
	[/\bgo\b|\bgolang\b/i, 'go'],
	[/\bruby\b/i, 'ruby'],
	[/\bjava\b/i, 'java'],
];

/** A task's snippet per language; `js` stands for JavaScript and TypeScript alike. */
interface Task {
	pattern: RegExp;
	name: string;
	python: string;
	js: string;
}

const TASKS: Task[] = [
	{
		pattern: /\brevers/i,
		name: 'reverse_string',
		python: 'def reverse_string(text):\n    return text[::-1]',
		js: 'function reverseString(text) {\n  return [...text].reverse().join("");\n}',
	},
	{
		pattern: /\bpalindrome/i,
		name: 'is_palindrome',
		python:
			'def is_palindrome(text):\n    letters = [c.lower() for c in text if c.isalnum()]\n    return letters == letters[::-1]',
		js: 'function isPalindrome(text) {\n  const letters = text.toLowerCase().replace(/[^a-z0-9]/g, "");\n  return letters === [...letters].reverse().join("");\n}',
	},
	{
		pattern: /\bprime/i,
		name: 'is_prime',
		python:
			'def is_prime(n):\n    if n < 2:\n        return False\n    return all(n % d for d in range(2, int(n ** 0.5) + 1))',
		js: 'function isPrime(n) {\n  if (n < 2) return false;\n  for (let d = 2; d * d <= n; d++) if (n % d === 0) return false;\n  return true;\n}',
	},
	{
		pattern: /\bfactorial/i,
		name: 'factorial',
		python:
			'def factorial(n):\n    result = 1\n    for k in range(2, n + 1):\n        result *= k\n    return result',
		js: 'function factorial(n) {\n  let result = 1;\n  for (let k = 2; k <= n; k++) result *= k;\n  return result;\n}',
	},
	{
		pattern: /\bfibonacci/i,
		name: 'fibonacci',
		python:
			'def fibonacci(n):\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a',
		js: 'function fibonacci(n) {\n  let [a, b] = [0, 1];\n  for (let i = 0; i < n; i++) [a, b] = [b, a + b];\n  return a;\n}',
	},
	{
		pattern: /\bfizz ?buzz/i,
		name: 'fizzbuzz',
		python:
			'def fizzbuzz(n):\n    for i in range(1, n + 1):\n        print("Fizz" * (i % 3 == 0) + "Buzz" * (i % 5 == 0) or i)',
		js: 'function fizzbuzz(n) {\n  for (let i = 1; i <= n; i++)\n    console.log((i % 3 ? "" : "Fizz") + (i % 5 ? "" : "Buzz") || i);\n}',
	},
	{
		pattern: /\bsort/i,
		name: 'sort_numbers',
		python: 'def sort_numbers(numbers):\n    return sorted(numbers)',
		js: 'function sortNumbers(numbers) {\n  return [...numbers].sort((a, b) => a - b);\n}',
	},
	{
		pattern: /\b(?:count|number of) (?:the )?words?\b|\bword count/i,
		name: 'count_words',
		python: 'def count_words(text):\n    return len(text.split())',
		js: 'function countWords(text) {\n  return text.trim().split(/\\s+/).filter(Boolean).length;\n}',
	},
	{
		pattern: /\bvowels?\b/i,
		name: 'count_vowels',
		python: 'def count_vowels(text):\n    return sum(1 for c in text.lower() if c in "aeiou")',
		js: 'function countVowels(text) {\n  return (text.toLowerCase().match(/[aeiou]/g) ?? []).length;\n}',
	},
	{
		pattern: /\b(?:largest|biggest|max(?:imum)?)\b/i,
		name: 'largest',
		python: 'def largest(numbers):\n    return max(numbers)',
		js: 'function largest(numbers) {\n  return Math.max(...numbers);\n}',
	},
	{
		pattern: /\b(?:average|mean)\b/i,
		name: 'average',
		python: 'def average(numbers):\n    return sum(numbers) / len(numbers)',
		js: 'function average(numbers) {\n  return numbers.reduce((a, b) => a + b, 0) / numbers.length;\n}',
	},
	{
		pattern: /\bcelsius|\bfahrenheit/i,
		name: 'celsius_to_fahrenheit',
		python: 'def celsius_to_fahrenheit(celsius):\n    return celsius * 9 / 5 + 32',
		js: 'function celsiusToFahrenheit(celsius) {\n  return (celsius * 9) / 5 + 32;\n}',
	},
	{
		pattern: /\b(?:e-?mail)\b.*\bvalid|\bvalid\w*\b.*\be-?mail/i,
		name: 'is_valid_email',
		python:
			'import re\n\ndef is_valid_email(address):\n    return re.fullmatch(r"[^@\\s]+@[^@\\s]+\\.[^@\\s]+", address) is not None',
		js: 'function isValidEmail(address) {\n  return /^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$/.test(address);\n}',
	},
	{
		pattern: /\b(?:add|sum)\b/i,
		name: 'add',
		python: 'def add(a, b):\n    return a + b',
		js: 'function add(a, b) {\n  return a + b;\n}',
	},
	{
		pattern: /\bhello,? world/i,
		name: 'hello_world',
		python: 'def hello_world():\n    print("Hello, world!")',
		js: 'function helloWorld() {\n  console.log("Hello, world!");\n}',
	},
];

const camel = (snake: string) => snake.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());

function typed(js: string): string {
	// the JavaScript snippet with its parameters typed loosely, as TypeScript accepts it
	return js.replace(/^function (\w+)\(([^)]*)\)/, (_, name: string, params: string) => {
		const list = params
			.split(',')
			.map((p) => p.trim())
			.filter(Boolean)
			.map(
				(p) =>
					`${p}: ${/text|address/.test(p) ? 'string' : /numbers/.test(p) ? 'number[]' : 'number'}`,
			);
		return `function ${name}(${list.join(', ')})`;
	});
}

function snippetFor(task: Task, language: Language): string {
	switch (language) {
		case 'python':
			return task.python;
		case 'javascript':
			return task.js;
		case 'typescript':
			return typed(task.js);
		default:
			return stub(language, task.name, task.name.replace(/_/g, ' '));
	}
}

/** A named stub for a task the scripted model has no snippet for. */
function stub(language: Language, name: string, task: string): string {
	const note = `TODO: ${task} (a scripted stand-in wrote this stub, not a model)`;
	switch (language) {
		case 'python':
			return `def ${name}(value):\n    # ${note}\n    raise NotImplementedError`;
		case 'ruby':
			return `def ${name}(value)\n  # ${note}\n  raise NotImplementedError\nend`;
		case 'bash':
			return `${name}() {\n  # ${note}\n  echo "$1"\n}`;
		case 'sql':
			return `-- ${note}\nSELECT *\nFROM items\nLIMIT 10;`;
		case 'go':
			return `func ${camel(name)}(value string) string {\n\t// ${note}\n\treturn value\n}`;
		case 'java':
			return `static String ${camel(name)}(String value) {\n    // ${note}\n    return value;\n}`;
		default:
			return `function ${camel(name)}(value) {\n  // ${note}\n  return value;\n}`;
	}
}

/** What the request asks the code to do, as a snake_case name ("that counts vowels" → counts_vowels). */
function taskName(question: string): { name: string; task: string } {
	const task =
		/\b(?:that|which|to)\s+([\s\S]+?)(?:[.?!]|$)/i.exec(question)?.[1]?.trim() ?? 'do the task';
	const name =
		task
			.toLowerCase()
			.split(/[^a-z0-9]+/)
			.filter((w) => w && !['a', 'an', 'the', 'of', 'in', 'given', 'it'].includes(w))
			.slice(0, 3)
			.join('_') || 'task';
	return { name, task };
}

/** The answer to a request for code: a sentence and a fenced snippet in the language asked. */
export function codeAnswer(question: string): string {
	const language = LANGUAGES.find(([pattern]) => pattern.test(question))?.[1] ?? 'python';
	const task = TASKS.find((t) => t.pattern.test(question));
	if (task) {
		const code = snippetFor(task, language);
		const name = language === 'python' || language === 'ruby' ? task.name : camel(task.name);
		return `Here is a short ${label(language)} function, \`${name}\`:\n\n\`\`\`${language}\n${code}\n\`\`\``;
	}
	const { name, task: words } = taskName(question);
	return `I have no ready snippet for "${words}"; here is a ${label(language)} stub to fill in:\n\n\`\`\`${language}\n${stub(language, name, words)}\n\`\`\``;
}

function label(language: Language): string {
	return (
		{
			python: 'Python',
			javascript: 'JavaScript',
			typescript: 'TypeScript',
			bash: 'Bash',
			sql: 'SQL',
			go: 'Go',
			ruby: 'Ruby',
			java: 'Java',
		} as const
	)[language];
}
