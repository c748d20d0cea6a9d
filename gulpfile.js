/**
 * Build: TypeScript into dist/, then the parts tsc does not do:
 * - copy the SVG icons and codex JSON beside the compiled nodes and credentials;
 * - bundle the libraries the nodes use at run time (eventsource-parser, @cfworker/json-schema)
 *   into dist/vendor, and point the compiled requires at them, so the package has no runtime
 *   dependencies.
 */
const { src, dest, series } = require('gulp');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');

const DIST = path.join(__dirname, 'dist');
/** Run-time libraries bundled into dist/vendor/<name>.js. */
const BUNDLED = ['eventsource-parser', '@cfworker/json-schema'];

function clean(done) {
	fs.rmSync(DIST, { recursive: true, force: true });
	done();
}

function compile(done) {
	execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.json'], {
		stdio: 'inherit',
	});
	done();
}

function copyAssets() {
	return src(['nodes/**/*.{svg,png}', 'nodes/**/*.node.json', 'credentials/**/*.{svg,png}'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

async function bundleLibraries() {
	for (const name of BUNDLED) {
		await esbuild.build({
			stdin: { contents: `module.exports = require(${JSON.stringify(name)});`, resolveDir: __dirname },
			bundle: true,
			format: 'cjs',
			platform: 'neutral',
			mainFields: ['module', 'main'],
			target: 'es2022',
			outfile: path.join(DIST, 'vendor', `${name}.js`),
			legalComments: 'inline',
			logLevel: 'warning',
		});
	}
}

function listJs(dir) {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return entry.name === 'vendor' ? [] : listJs(full);
		return entry.name.endsWith('.js') ? [full] : [];
	});
}

function pointRequiresAtBundles(done) {
	for (const file of listJs(DIST)) {
		let code = fs.readFileSync(file, 'utf8');
		let changed = false;
		for (const name of BUNDLED) {
			const relative = path.relative(path.dirname(file), path.join(DIST, 'vendor', name)).split(path.sep).join('/');
			const target = relative.startsWith('.') ? relative : `./${relative}`;
			const pattern = new RegExp(`require\\((["'])${name.replace(/[-/\\^$*+?.()|[\]{}]/g, '\\$&')}\\1\\)`, 'g');
			if (pattern.test(code)) {
				code = code.replace(pattern, `require("${target}")`);
				changed = true;
			}
		}
		if (changed) fs.writeFileSync(file, code);
	}
	done();
}

exports.build = series(clean, compile, copyAssets, bundleLibraries, pointRequiresAtBundles);
exports['build:icons'] = copyAssets;
exports.default = exports.build;
