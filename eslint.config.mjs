// npm run lint: n8n's community rules on the shipped source (the same config n8n's scanner uses,
// @n8n/eslint-plugin-community-nodes `recommended`), typescript-eslint's recommended rules on every
// TypeScript file, then `prettier --check` (see package.json). The release gate on the packed
// tarball is `npm run release:check`.
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import tseslint from 'typescript-eslint';

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
	{
		files: ['**/*.js', '**/*.mjs'],
		rules: { '@typescript-eslint/no-require-imports': 'off' },
	},
);
