#!/usr/bin/env node
/**
 * n8n's community rules on this package, as n8n applies them before it lists a package:
 * 1. @n8n/eslint-plugin-community-nodes' `recommended` (n8n Cloud) config, plus no-console,
 *    with inline eslint-disable comments ignored, on the source and on every file of the packed tarball;
 * 2. the official scanner's `analyzePackage` (@n8n/scan-community-package) on both as well.
 * Also checks what the tarball ships: no `dependencies`, the `n8n` section's files, no leftover
 * require of a library that must be bundled. Exits non-zero on any finding.
 *   usage: node scripts/lint-package.mjs [--tarball path.tgz]
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import glob from 'fast-glob';
import tsParser from '@typescript-eslint/parser';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import { analyzePackage, SOURCE_FILE_PATTERNS } from '@n8n/scan-community-package/scanner/scanner.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUNDLED = ['eventsource-parser', 'form-data'];
let failures = 0;
const fail = (what) => {
	failures++;
	console.error(`✗ ${what}`);
};

const recommendedConfig = [
	n8nCommunityNodesPlugin.configs.recommended,
	{ rules: { 'no-console': 'error' } },
	{ files: ['**/*.json', '**/*.ts'], languageOptions: { parser: tsParser } },
];

async function lintWithRecommended(dir, patterns, label) {
	const eslint = new ESLint({ cwd: dir, allowInlineConfig: false, overrideConfigFile: true, overrideConfig: recommendedConfig });
	const files = glob.sync(patterns, { cwd: dir, absolute: true, ignore: ['node_modules/**', '**/package-lock.json'] });
	const results = await eslint.lintFiles(files);
	const errors = results.reduce((sum, r) => sum + r.errorCount, 0);
	const warnings = results.reduce((sum, r) => sum + r.warningCount, 0);
	const text = await (await eslint.loadFormatter('stylish')).format(results);
	if (text.trim()) console.log(text);
	if (errors) fail(`${label}: ${errors} error(s) from the community-nodes recommended config`);
	else console.log(`✓ ${label}: ${files.length} files pass the community-nodes recommended config (${warnings} warning(s))`);
}

async function scanWithOfficialScanner(dir, patterns, label) {
	const result = await analyzePackage(dir, patterns);
	if (result.passed) console.log(`✓ ${label}: n8n's community package scanner finds nothing`);
	else {
		console.log(result.details ?? result.message);
		fail(`${label}: n8n's community package scanner: ${result.message}`);
	}
}

function packTarball() {
	const out = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-platform-pack-'));
	const name = execFileSync('npm', ['pack', '--silent', '--pack-destination', out], { cwd: root, encoding: 'utf8' })
		.trim()
		.split('\n')
		.pop();
	return path.join(out, name);
}

function checkManifest(dir) {
	const before = failures;
	const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
	if (manifest.dependencies && Object.keys(manifest.dependencies).length) fail(`tarball: has dependencies ${JSON.stringify(manifest.dependencies)}`);
	if (JSON.stringify(manifest.peerDependencies) !== JSON.stringify({ 'n8n-workflow': '*' })) fail('tarball: peerDependencies must be exactly {"n8n-workflow":"*"}');
	if (!manifest.keywords?.includes('n8n-community-node-package')) fail('tarball: keyword n8n-community-node-package missing');
	for (const file of [...(manifest.n8n?.nodes ?? []), ...(manifest.n8n?.credentials ?? [])]) {
		if (!fs.existsSync(path.join(dir, file))) fail(`tarball: the n8n section lists ${file}, which is not in the tarball`);
	}
	const shipped = glob.sync('**/*', { cwd: dir });
	const outside = shipped.filter((f) => f !== 'package.json' && !f.startsWith('dist/') && !/^(README|LICENSE)/i.test(f));
	if (outside.length) fail(`tarball: files outside dist/: ${outside.join(', ')}`);
	for (const file of glob.sync('dist/**/*.js', { cwd: dir, absolute: true })) {
		const code = fs.readFileSync(file, 'utf8');
		for (const name of BUNDLED) {
			if (code.includes(`require("${name}")`) || code.includes(`require('${name}')`)) fail(`tarball: ${path.relative(dir, file)} requires ${name}, which is not installed at run time`);
		}
	}
	const workflowPath = createRequire(path.join(root, 'package.json')).resolve('n8n-workflow');
	// Loads every node and credential with nothing but n8n-workflow available, as n8n does.
	for (const file of [...(manifest.n8n?.nodes ?? []), ...(manifest.n8n?.credentials ?? [])]) {
		try {
			execFileSync(process.execPath, ['-e', `
				const Module = require('module');
				const orig = Module._resolveFilename;
				Module._resolveFilename = function (request, parent, ...rest) {
					const fromPackage = parent && parent.filename && parent.filename.startsWith(${JSON.stringify(dir)});
					if (fromPackage && request === 'n8n-workflow') return ${JSON.stringify(workflowPath)};
					if (fromPackage && !request.startsWith('.') && !Module.isBuiltin(request)) throw new Error('runtime dependency: ' + request);
					return orig.call(this, request, parent, ...rest);
				};
				const exported = require(${JSON.stringify(path.join(dir, file))});
				for (const C of Object.values(exported)) new C();
			`], { stdio: 'pipe' });
		} catch (error) {
			fail(`tarball: ${file} does not load on its own: ${String(error.stderr || error.message).split('\n').slice(0, 4).join(' ')}`);
		}
	}
	if (failures === before) console.log(`✓ tarball: ${shipped.length} files, manifest checked, every node and credential loads without dependencies`);
}

const tarballArg = process.argv.indexOf('--tarball');
await lintWithRecommended(root, SOURCE_FILE_PATTERNS, 'source');
await scanWithOfficialScanner(root, SOURCE_FILE_PATTERNS, 'source');

if (!fs.existsSync(path.join(root, 'dist'))) fail('dist/ is missing: run `npm run build` first');
const tarball = tarballArg > 0 ? path.resolve(process.argv[tarballArg + 1]) : packTarball();
const unpacked = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-platform-unpacked-'));
execFileSync('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1']);
console.log(`tarball: ${path.basename(tarball)}`);
checkManifest(unpacked);
await lintWithRecommended(unpacked, ['**/*.js', '**/*.json'], 'tarball');
await scanWithOfficialScanner(unpacked, ['**/*.js', '**/*.json'], 'tarball');
fs.rmSync(unpacked, { recursive: true, force: true });

if (failures) {
	console.error(`${failures} problem(s): the package would not pass n8n's community checks`);
	process.exit(1);
}
console.log('lint-package: the source and the packed tarball pass n8n\'s community checks');
