/**
 * The package checks of the release check (scripts/lint-package.mjs): package.json and its n8n
 * section, and the tarball's files, each node and credential loaded alone, icons, codex files and
 * the README's sections. Each finding goes to `fail`.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import glob from 'fast-glob';

/** The checks, reporting to `fail` (`failureCount`: how many so far); `root` is the repository, `bundled` the libraries bundled into dist/vendor. */
export function packageChecks({ root, fail, failureCount, bundled: BUNDLED }) {
	const README_SECTIONS = [
		'Installing in n8n',
		'Credentials',
		'Operations',
		'Examples',
		'Screenshots',
		'Limits',
		'Troubleshooting',
		'Compatibility',
	];
	/** Codex categories n8n's node panel knows. */
	const CODEX_CATEGORIES = [
		'AI',
		'Analytics',
		'Communication',
		'Core Nodes',
		'Data & Storage',
		'Developer Tools',
		'Development',
		'ECM',
		'Finance & Accounting',
		'HITL',
		'Marketing',
		'Miscellaneous',
		'Productivity',
		'Sales',
		'Utility',
	];

	/** package.json rules n8n checks before it lists a community package. */
	function checkPackageJson(manifest, label) {
		if (!/^(@[^/]+\/)?n8n-nodes-/.test(manifest.name ?? ''))
			fail(`${label}: the name must start with n8n-nodes- (or @scope/n8n-nodes-)`);
		if (!manifest.keywords?.includes('n8n-community-node-package'))
			fail(`${label}: keyword n8n-community-node-package missing`);
		if (manifest.license !== 'MIT') fail(`${label}: license must be MIT`);
		for (const field of ['homepage', 'author', 'repository', 'bugs', 'description'])
			if (!manifest[field]) fail(`${label}: ${field} missing`);
		// npm and n8n link to these three; the provenance statement names the repository it was built in.
		const repositories = new Set(
			[manifest.repository?.url, manifest.homepage, manifest.bugs?.url].map(
				(url) => /github\.com\/([^/#]+\/[^/#]+?)(?:\.git)?(?:[/#]|$)/.exec(url ?? '')?.[1],
			),
		);
		if (repositories.size !== 1 || repositories.has(undefined))
			fail(`${label}: repository, homepage and bugs must name one GitHub repository`);
		if (JSON.stringify(manifest.files) !== JSON.stringify(['dist']))
			fail(`${label}: "files" must be ["dist"]`);
		if (manifest.dependencies && Object.keys(manifest.dependencies).length)
			fail(`${label}: has dependencies ${JSON.stringify(manifest.dependencies)}`);
		// n8n's own install provides both; the AI node SDK (n8n 2.16 and later) is loaded only by the
		// chat model, so it is optional: npm must not install a copy of its own
		const peers = { '@n8n/ai-node-sdk': '*', 'n8n-workflow': '*' };
		if (JSON.stringify(manifest.peerDependencies) !== JSON.stringify(peers))
			fail(`${label}: peerDependencies must be exactly ${JSON.stringify(peers)}`);
		// optional: npm 7+ installs required peers beside the package, and a second n8n-workflow
		// makes the package's errors another class than n8n's (the chat shows "Original error: …")
		for (const peer of Object.keys(peers))
			if (manifest.peerDependenciesMeta?.[peer]?.optional !== true)
				fail(`${label}: peerDependenciesMeta must mark ${peer} optional`);
		if (manifest.n8n?.aiNodeSdkVersion !== 1) fail(`${label}: n8n.aiNodeSdkVersion must be 1`);
		for (const script of ['preinstall', 'install', 'postinstall', 'prepare'])
			if (manifest.scripts?.[script])
				fail(`${label}: a "${script}" script runs on the user's machine`);
		if (manifest.overrides) fail(`${label}: "overrides" is not allowed`);
		if (manifest.n8n?.n8nNodesApiVersion !== 1) fail(`${label}: n8n.n8nNodesApiVersion must be 1`);
		// The n8n section lists exactly the source's nodes and credentials, compiled.
		const expected = {
			nodes: glob
				.sync('nodes/**/*.node.ts', { cwd: root })
				.map((f) => `dist/${f.replace(/\.ts$/, '.js')}`)
				.sort(),
			credentials: glob
				.sync('credentials/**/*.credentials.ts', { cwd: root })
				.map((f) => `dist/${f.replace(/\.ts$/, '.js')}`)
				.sort(),
		};
		for (const kind of ['nodes', 'credentials']) {
			const listed = [...(manifest.n8n?.[kind] ?? [])].sort();
			if (JSON.stringify(listed) !== JSON.stringify(expected[kind])) {
				fail(
					`${label}: n8n.${kind} is ${JSON.stringify(listed)}, the source has ${JSON.stringify(expected[kind])}`,
				);
			}
		}
	}

	/** Loads every node and credential of the tarball with nothing but n8n-workflow; returns their descriptions. */
	function loadAlone(dir, file, workflowPath) {
		const output = execFileSync(
			process.execPath,
			[
				'-e',
				`
			const Module = require('module');
			const orig = Module._resolveFilename;
			Module._resolveFilename = function (request, parent, ...rest) {
				const fromPackage = parent && parent.filename && parent.filename.startsWith(${JSON.stringify(dir)});
				if (fromPackage && request === 'n8n-workflow') return ${JSON.stringify(workflowPath)};
				if (fromPackage && !request.startsWith('.') && !Module.isBuiltin(request)) throw new Error('runtime dependency: ' + request);
				return orig.call(this, request, parent, ...rest);
			};
			const exported = require(${JSON.stringify(path.join(dir, file))});
			const found = Object.values(exported).map((C) => {
				const o = new C();
				const d = o.description ?? o;
				return { name: d.name, icon: d.icon, credentials: (d.credentials ?? []).map((c) => c.name), documentationUrl: o.documentationUrl };
			});
			process.stdout.write(JSON.stringify(found));
		`,
			],
			{ stdio: 'pipe', encoding: 'utf8' },
		);
		return JSON.parse(output);
	}

	function checkIcons(dir, file, loaded) {
		if (
			!loaded.icon ||
			typeof loaded.icon !== 'object' ||
			!loaded.icon.light ||
			!loaded.icon.dark
		) {
			fail(`tarball: ${file} (${loaded.name}) needs an icon with light and dark variants`);
			return;
		}
		for (const variant of ['light', 'dark']) {
			const icon = String(loaded.icon[variant]);
			const iconPath = path.join(dir, path.dirname(file), icon.replace(/^file:/, ''));
			if (!icon.startsWith('file:') || !icon.endsWith('.svg'))
				fail(`tarball: ${file} ${variant} icon ${icon} is not an SVG file`);
			else if (!fs.existsSync(iconPath))
				fail(`tarball: ${file} ${variant} icon ${icon} is not in the tarball`);
			else if (!/<svg[\s>]/.test(fs.readFileSync(iconPath, 'utf8')))
				fail(`tarball: ${path.relative(dir, iconPath)} is not an SVG image`);
		}
		if (loaded.icon.light === loaded.icon.dark)
			fail(`tarball: ${file} uses the same file as light and dark icon`);
	}

	function checkCodex(dir, file, loaded, packageName) {
		const codexFile = path.join(dir, file.replace(/\.js$/, '.json'));
		const rel = path.relative(dir, codexFile);
		if (!fs.existsSync(codexFile))
			return fail(`tarball: ${rel} (the node's codex file) is missing`);
		let codex;
		try {
			codex = JSON.parse(fs.readFileSync(codexFile, 'utf8'));
		} catch (error) {
			return fail(`tarball: ${rel} is not valid JSON: ${error.message}`);
		}
		if (codex.node !== `${packageName}.${loaded.name}`)
			fail(`tarball: ${rel}: "node" must be ${packageName}.${loaded.name}`);
		if (!codex.nodeVersion || !codex.codexVersion)
			fail(`tarball: ${rel}: nodeVersion and codexVersion are required`);
		const categories = Array.isArray(codex.categories) ? codex.categories : [];
		if (!categories.length) fail(`tarball: ${rel}: no categories`);
		for (const category of categories)
			if (!CODEX_CATEGORIES.includes(category))
				fail(`tarball: ${rel}: unknown category "${category}"`);
		// a key is a category, or a subcategory listed under one (n8n's "Language Models" → "Chat Models")
		const listed = Object.values(codex.subcategories ?? {}).flat();
		for (const category of Object.keys(codex.subcategories ?? {}))
			if (!categories.includes(category) && !listed.includes(category))
				fail(`tarball: ${rel}: subcategories of "${category}", which is not one of its categories`);
		const links = (kind) => (codex.resources?.[kind] ?? []).map((r) => r.url);
		if (
			!links('primaryDocumentation').length ||
			!links('primaryDocumentation').every((u) => /^https:\/\//.test(u))
		)
			fail(`tarball: ${rel}: resources.primaryDocumentation needs an https link`);
		if (loaded.credentials.length && !links('credentialDocumentation').length)
			fail(`tarball: ${rel}: resources.credentialDocumentation needs a link`);
	}

	function checkReadme(dir) {
		const readme = glob.sync('README*', { cwd: dir })[0];
		if (!readme) return fail('tarball: no README');
		const text = fs.readFileSync(path.join(dir, readme), 'utf8');
		const headings = new Set([...text.matchAll(/^#{2,3} (.+)$/gm)].map((m) => m[1].trim()));
		const missing = README_SECTIONS.filter((s) => !headings.has(s));
		if (missing.length)
			fail(`tarball: ${readme} lacks the section(s) ${missing.map((s) => `"${s}"`).join(', ')}`);
		for (const [, image] of text.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)) {
			if (!/^https?:/.test(image) && !fs.existsSync(path.join(root, image)))
				fail(`README shows ${image}, which is not in the repository`);
		}
		if (!glob.sync('LICENSE*', { cwd: dir }).length) fail('tarball: no LICENSE file');
	}

	function checkManifest(dir) {
		const before = failureCount();
		const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
		checkPackageJson(manifest, 'tarball package.json');
		const shipped = glob.sync('**/*', { cwd: dir });
		const outside = shipped.filter(
			(f) => f !== 'package.json' && !f.startsWith('dist/') && !/^(README|LICENSE)/i.test(f),
		);
		if (outside.length) fail(`tarball: files outside dist/: ${outside.join(', ')}`);
		for (const file of glob.sync('dist/**/*.js', { cwd: dir, absolute: true })) {
			const code = fs.readFileSync(file, 'utf8');
			for (const name of BUNDLED) {
				if (code.includes(`require("${name}")`) || code.includes(`require('${name}')`))
					fail(
						`tarball: ${path.relative(dir, file)} requires ${name}, which is not installed at run time`,
					);
			}
		}
		const workflowPath = createRequire(path.join(root, 'package.json')).resolve('n8n-workflow');
		const kinds = [
			...(manifest.n8n?.nodes ?? []).map((f) => ['node', f]),
			...(manifest.n8n?.credentials ?? []).map((f) => ['credential', f]),
		];
		for (const [kind, file] of kinds) {
			if (!fs.existsSync(path.join(dir, file))) {
				fail(`tarball: the n8n section lists ${file}, which is not in the tarball`);
				continue;
			}
			let loaded;
			try {
				loaded = loadAlone(dir, file, workflowPath);
			} catch (error) {
				fail(
					`tarball: ${file} does not load on its own: ${String(error.stderr || error.message)
						.split('\n')
						.slice(0, 4)
						.join(' ')}`,
				);
				continue;
			}
			for (const one of loaded) {
				checkIcons(dir, file, one);
				if (kind === 'node') checkCodex(dir, file, one, manifest.name);
				if (kind === 'credential' && !/^https:\/\//.test(one.documentationUrl ?? ''))
					fail(`tarball: ${file}: the credential needs an https documentationUrl`);
			}
		}
		checkReadme(dir);
		if (failureCount() === before)
			console.log(
				`✓ tarball: ${shipped.length} files; package.json, n8n section, icons, codex files and README checked; every node and credential loads without dependencies`,
			);
	}

	return { checkPackageJson, checkManifest };
}
