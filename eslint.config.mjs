// npm run lint: n8n's community rules on the shipped source (the same config n8n's scanner uses,
// @n8n/eslint-plugin-community-nodes `recommended`), typescript-eslint's recommended rules on every
// TypeScript file, then `prettier --check` (see package.json). The release gate on the packed
// tarball is `npm run release:check`.
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import tseslint from 'typescript-eslint';

// The layers point one way: node classes → actions/, methods/ → helpers/ → transport/
// (docs/development.md, "Layers"). A lower layer's file may not import a higher one's, not even a
// type: it would tie the lower layer to what it serves. `import('…')` types count as well.
const LAYERS = { helpers: ['methods', 'actions'], transport: ['helpers', 'methods', 'actions'] };
const layerRules = Object.entries(LAYERS).map(([layer, above]) => {
	const regex = `^\\.{1,2}/(?:.*/)?(?:${above.join('|')}|[^/]*\\.node)(?:/|$)`;
	const message = `Layer rule: ${layer}/ never imports ${above.map((f) => `${f}/`).join(', ')} or a node class (the layers point one way: node classes → actions/, methods/ → helpers/ → transport/; docs/development.md). Move what both need into ${layer}/ or below.`;
	return {
		files: [`nodes/**/${layer}/**/*.ts`],
		rules: {
			'no-restricted-imports': ['error', { patterns: [{ regex, message }] }],
			'no-restricted-syntax': [
				'error',
				...['ImportExpression > Literal', 'TSImportType Literal'].map((node) => ({
					selector: `${node}[value=/${regex.replaceAll('/', '\\/')}/]`,
					message,
				})),
			],
		},
	};
});

export default tseslint.config(
	{ ignores: ['dist/**', 'node_modules/**', '.tmp/**', 'docs/**'] },
	...tseslint.configs.recommended,
	{
		files: ['nodes/**/*.ts', 'credentials/**/*.ts'],
		...n8nCommunityNodesPlugin.configs.recommended,
	},
	{ files: ['nodes/**/*.ts', 'credentials/**/*.ts'], rules: { 'no-console': 'error' } },
	{
		rules: {
			'@typescript-eslint/no-unused-vars': [
				'error',
				{ argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
			],
		},
	},
	...layerRules,
	{
		files: ['**/*.js', '**/*.mjs'],
		rules: { '@typescript-eslint/no-require-imports': 'off' },
	},
);
