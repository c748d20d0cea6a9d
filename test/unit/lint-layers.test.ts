/**
 * The layers' rule of the project's lint (eslint.config.mjs): a planted import that points back up
 * (helpers/ → methods/ or actions/, transport/ → helpers/, type imports too) fails `npm run lint`
 * with a message that names the rule; imports that point down pass. The planted files are linted
 * as text under their paths by ESLint's API, in a child process (ESLint loads its config as an ES
 * module, which jest's module system does not), so nothing is written into the tree.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';

interface Planted {
	filePath: string;
	code: string;
}

interface Problem {
	ruleId: string | null;
	message: string;
	line: number;
}

const LINT = `
import { readFileSync } from 'node:fs';
import { ESLint } from 'eslint';
const eslint = new ESLint();
const results = [];
for (const { filePath, code } of JSON.parse(readFileSync(0, 'utf8'))) {
	const [result] = await eslint.lintText(code, { filePath });
	results.push(result.messages.map(({ ruleId, message, line }) => ({ ruleId, message, line })));
}
process.stdout.write(JSON.stringify(results));
`;

/** The problems the project's lint finds in each planted file. */
function lint(planted: Planted[]): Problem[][] {
	const root = path.resolve(__dirname, '../..');
	const out = execFileSync(process.execPath, ['--input-type=module', '-e', LINT], {
		cwd: root,
		input: JSON.stringify(planted),
		encoding: 'utf8',
	});
	return JSON.parse(out) as Problem[][];
}

const HELPER = 'nodes/AgentPlatform/helpers/agents/planted.ts';
const TRANSPORT = 'nodes/AgentPlatform/transport/pace/planted.ts';

const layerProblems = (problems: Problem[]) =>
	problems.filter((p) => p.message.includes('Layer rule:'));

describe("the project's lint keeps the layers pointing one way", () => {
	let results: Problem[][];
	beforeAll(() => {
		results = lint([
			{
				filePath: HELPER,
				code: [
					"import { currentAgentId } from '../../methods/loadOptions';",
					"import type { AgentPlatformType } from '../../actions/node.type';",
					"export { router } from '../../actions/router';",
					"export type Search = import('../../methods/listSearch').Search;",
					'export const used: [typeof currentAgentId, AgentPlatformType] | undefined = undefined;',
				].join('\n'),
			},
			{
				filePath: TRANSPORT,
				code: [
					"import type { JsonRequest } from '../../helpers/output/structuredOutput';",
					"import { AgentPlatform } from '../../AgentPlatform.node';",
					'export const used: [JsonRequest, typeof AgentPlatform] | undefined = undefined;',
				].join('\n'),
			},
			{
				filePath: HELPER,
				code: [
					"import { apiRequest } from '../../transport/request';",
					"import { inItem } from '../input/parameters';",
					'export const used = [apiRequest, inItem];',
				].join('\n'),
			},
			{
				filePath: 'nodes/AgentPlatform/methods/planted.ts',
				code: [
					"import { readAgentDefinition } from '../helpers/agents/definitions';",
					"import type { PlatformContext } from '../transport/types';",
					'export const used: [typeof readAgentDefinition, PlatformContext?] = [readAgentDefinition];',
				].join('\n'),
			},
		]);
	}, 60_000);

	it('fails a helper that imports methods/ or actions/, a type or an import() type too, naming the rule', () => {
		const problems = layerProblems(results[0]);
		expect(problems.map((p) => [p.line, p.ruleId])).toEqual([
			[1, 'no-restricted-imports'],
			[2, 'no-restricted-imports'],
			[3, 'no-restricted-imports'],
			[4, 'no-restricted-syntax'],
		]);
		for (const problem of problems) {
			expect(problem.message).toContain(
				'Layer rule: helpers/ never imports methods/, actions/ or a node class',
			);
		}
	});

	it('fails transport/ importing a helper (a type too) or a node class', () => {
		const problems = layerProblems(results[1]);
		expect(problems.map((p) => [p.line, p.ruleId])).toEqual([
			[1, 'no-restricted-imports'],
			[2, 'no-restricted-imports'],
		]);
		expect(problems[0].message).toContain(
			'Layer rule: transport/ never imports helpers/, methods/, actions/ or a node class',
		);
	});

	it('passes imports that point down: helpers → transport/ and helpers/, methods/ → helpers/', () => {
		expect(results[2]).toEqual([]);
		expect(results[3]).toEqual([]);
	});
});
