/**
 * Build: every TypeScript source of nodes/ and credentials/ into dist/, one output file per source
 * file (so the nodes share their modules as they do in the source), then the icons and codex JSON
 * beside them. The libraries the nodes use at run time (eventsource-parser, @cfworker/json-schema) are
 * bundled into dist/vendor, and esbuild writes each import of them as a relative require of that bundle, so the
 * package has no runtime dependencies and nothing rewrites compiled code afterwards.
 */
const { src, dest, series } = require('gulp');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');
const glob = require('fast-glob');

const DIST = path.join(__dirname, 'dist');
/** Run-time libraries bundled into dist/vendor/<name>.js. */
const BUNDLED = ['eventsource-parser', '@cfworker/json-schema'];

function clean(done) {
	fs.rmSync(DIST, { recursive: true, force: true });
	done();
}

/** Type check only: esbuild writes the JavaScript. */
function typecheck(done) {
	execFileSync(
		process.execPath,
		[require.resolve('typescript/bin/tsc'), '--noEmit', '-p', 'tsconfig.json'],
		{
			stdio: 'inherit',
		},
	);
	done();
}

/**
 * Each source file compiled on its own (every import stays a require of its own module), except
 * that an import of a bundled library becomes a require of its bundle in dist/vendor.
 */
async function compile() {
	const sources = await glob(['nodes/**/*.ts', 'credentials/**/*.ts'], {
		cwd: __dirname,
		ignore: ['**/*.d.ts'],
	});
	const keepModules = {
		name: 'keep-modules',
		setup(build) {
			build.onResolve({ filter: /.*/ }, (args) => {
				if (args.kind === 'entry-point') return undefined;
				if (!BUNDLED.includes(args.path)) return { path: args.path, external: true };
				const importer = path.join(DIST, path.relative(__dirname, args.importer));
				const bundle = path.relative(
					path.dirname(importer),
					path.join(DIST, 'vendor', `${args.path}.js`),
				);
				const target = bundle.split(path.sep).join('/');
				return { path: target.startsWith('.') ? target : `./${target}`, external: true };
			});
		},
	};
	await esbuild.build({
		entryPoints: sources,
		outdir: DIST,
		outbase: '.',
		bundle: true,
		format: 'cjs',
		// 'neutral', not 'node': esbuild then leaves out its export-name annotation for Node's ESM
		// loader (`0 && (module.exports = {…})`), which names exports such as `process` that n8n's
		// community lint takes for the restricted global.
		platform: 'neutral',
		target: 'es2022',
		plugins: [keepModules],
		logLevel: 'warning',
	});
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
			stdin: {
				contents: `module.exports = require(${JSON.stringify(name)});`,
				resolveDir: __dirname,
			},
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

exports.build = series(clean, typecheck, compile, copyAssets, bundleLibraries);
exports['build:icons'] = copyAssets;
exports.default = exports.build;
