/** The corpus's literal answers (each under a few KB), by kind. */
import { COMPILED } from './ordinary-answers.compiled';
import { CONFIGS } from './ordinary-answers.configs';
import { DOCUMENTS } from './ordinary-answers.documents';
import { N8N_EXPRESSIONS, OTHER_APIS } from './ordinary-answers.explained';
import { JAVASCRIPT } from './ordinary-answers.javascript';
import { KOTLIN_SWIFT_SCALA } from './ordinary-answers.jvm-apple';
import { MARKUP } from './ordinary-answers.markup';
import { MORE_CODE } from './ordinary-answers.more-code';
import { PROSE } from './ordinary-answers.prose';
import { PYTHON } from './ordinary-answers.python';
import { SCRIPTING } from './ordinary-answers.scripting';

export { N8N_EXPRESSIONS, OTHER_APIS, PROSE, PYTHON, JAVASCRIPT };

export const CODE = [
	...PYTHON,
	...JAVASCRIPT,
	...COMPILED,
	...KOTLIN_SWIFT_SCALA,
	...SCRIPTING,
	...MARKUP,
	...MORE_CODE,
];

export const DOCUMENTS_AND_CONFIGS = [...DOCUMENTS, ...CONFIGS];
