#!/usr/bin/env node
/**
 * The release check (`npm run release:check` builds first; `npm test` runs it on
 * the current build): n8n's community rules on this package, as n8n applies them before it lists
 * or verifies a package, on the source and on the packed tarball. Exits non-zero on any finding.
 * 1. @n8n/eslint-plugin-community-nodes' `recommended` (n8n Cloud) config, plus no-console,
 *    with inline eslint-disable comments ignored, on the source and on every file of the tarball;
 * 2. the official scanner's `analyzePackage` (@n8n/scan-community-package) on both as well;
 * 3. package.json: name, keyword, license, files, repository, homepage and bugs naming one
 *    repository, no `dependencies`, peerDependencies exactly n8n-workflow, no install scripts or
 *    overrides; the `n8n` section lists exactly the nodes and credentials of the source, and each
 *    is in the tarball;
 * 4. the tarball: only dist/ plus package.json, README and LICENSE; no require of a library that
 *    must be bundled; every node and credential loads with nothing but n8n-workflow; each has a
 *    light and a dark SVG icon in the tarball; each node has its codex file (categories,
 *    documentation links); README with the sections users need;
 * 5. n8n's next rules as facts of our own (scripts/coming-rules.mjs): codex "AI" and subcategories
 *    only on the node built on the AI node SDK, MIT, an author, no monorepo, triggers named as such,
 *    errors carrying their item index, no runtime dependency, no restricted global or import; on
 *    the source and on the tarball (docs/verification.md).
 *   usage: node scripts/lint-package.mjs [--tarball path.tgz]
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { checkComingRules } from './coming-rules.mjs';
import { packageChecks } from './package-checks.mjs';
import glob from 'fast-glob';
import tsParser from '@typescript-eslint/parser';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import {
	analyzePackage,
	SOURCE_FILE_PATTERNS,
} from '@n8n/scan-community-package/scanner/scanner.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUNDLED = ['eventsource-parser', 'form-data'];
let failures = 0;
const fail = (what) => {
	failures++;
	console.error(`✗ ${what}`);
};

const { checkPackageJson, checkManifest } = packageChecks({
	root,
	fail,
	failureCount: () => failures,
	bundled: BUNDLED,
});

const recommendedConfig = [
	n8nCommunityNodesPlugin.configs.recommended,
	{ rules: { 'no-console': 'error' } },
	{ files: ['**/*.json', '**/*.ts'], languageOptions: { parser: tsParser } },
];

async function lintWithRecommended(dir, patterns, label) {
	const eslint = new ESLint({
		cwd: dir,
		allowInlineConfig: false,
		overrideConfigFile: true,
		overrideConfig: recommendedConfig,
	});
	const files = glob.sync(patterns, {
		cwd: dir,
		absolute: true,
		ignore: ['node_modules/**', '**/package-lock.json'],
	});
	const results = await eslint.lintFiles(files);
	const errors = results.reduce((sum, r) => sum + r.errorCount, 0);
	const warnings = results.reduce((sum, r) => sum + r.warningCount, 0);
	const text = await (await eslint.loadFormatter('stylish')).format(results);
	if (text.trim()) console.log(text);
	if (errors) fail(`${label}: ${errors} error(s) from the community-nodes recommended config`);
	else
		console.log(
			`✓ ${label}: ${files.length} files pass the community-nodes recommended config (${warnings} warning(s))`,
		);
}

/** n8n's next rules (coming-rules.mjs) on a package folder: the source, or the unpacked tarball. */
function holdComingRules(dir, label) {
	const before = failures;
	checkComingRules(dir, (finding) => fail(`${label}: ${finding}`));
	if (failures === before)
		console.log(
			`✓ ${label}: n8n's next rules hold (codex, MIT, author, no monorepo, triggers, item index, no dependency, globals, imports)`,
		);
}

async function scanWithOfficialScanner(dir, patterns, label) {
	const result = await analyzePackage(dir, patterns);
	if (result.passed) console.log(`✓ ${label}: n8n's community package scanner finds nothing`);
	else {
		console.log(result.details ?? result.message);
		fail(`${label}: n8n's community package scanner: ${result.message}`);
	}
}

/**
 * The tarball of dist/ as just built (`npm run release:check` builds first), packed where the
 * end-to-end tests look for it (dev/n8n/pack.ts: kept under a hash of the sources), so that
 * `npm test` after the release check packs nothing again.
 */
async function packTarball() {
	const require = createRequire(import.meta.url);
	require('ts-node').register({
		transpileOnly: true,
		project: path.join(root, 'tsconfig.json'),
		compilerOptions: { module: 'commonjs' },
	});
	return await require('../dev/n8n/pack.ts').packPackage({ built: true });
}

/** Sections the README must have (the user-facing documentation n8n's verification asks for). */
const tarballArg = process.argv.indexOf('--tarball');
checkPackageJson(
	JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')),
	'package.json',
);
await lintWithRecommended(root, SOURCE_FILE_PATTERNS, 'source');
await scanWithOfficialScanner(root, SOURCE_FILE_PATTERNS, 'source');
holdComingRules(root, 'source');

if (!fs.existsSync(path.join(root, 'dist'))) fail('dist/ is missing: run `npm run build` first');
const tarball = tarballArg > 0 ? path.resolve(process.argv[tarballArg + 1]) : await packTarball();
const unpacked = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-platform-unpacked-'));
execFileSync('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1']);
console.log(`tarball: ${path.basename(tarball)}`);
checkManifest(unpacked);
await lintWithRecommended(unpacked, ['**/*.js', '**/*.json'], 'tarball');
await scanWithOfficialScanner(unpacked, ['**/*.js', '**/*.json'], 'tarball');
holdComingRules(unpacked, 'tarball');
fs.rmSync(unpacked, { recursive: true, force: true });

if (failures) {
	console.error(
		`${failures} problem(s): the package is not ready for release (n8n's community checks or the package checks)`,
	);
	process.exit(1);
}
console.log(
	"release check: the source and the packed tarball pass n8n's community checks and the package checks",
);
