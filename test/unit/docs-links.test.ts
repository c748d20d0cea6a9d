/**
 * Every Docs link n8n shows for the package leads to a page the repository has and keeps its place.
 * The links: each node's codex file (`resources.primaryDocumentation`, whose first entry is the
 * node's *Docs* link, and `resources.credentialDocumentation`), each node description's
 * `documentationUrl` if any, and the credential's `documentationUrl`. n8n's editor appends its query
 * to a codex link as text (`primaryDocUrl + '?utm_source=n8n_app&…'`, editor-ui NodeSettings'
 * `documentationUrl`), so a link with an anchor would open `…#section?utm_source=…`, a heading no
 * page has: no link carries one. The repository's web address comes from package.json's
 * `repository` (the one the release check holds `homepage` and `bugs` to); its pages are its files
 * on `main` (`/blob/main/<file>`, `/tree/main/<folder>`), each checked in this checkout.
 */
import fs from 'node:fs';
import path from 'node:path';

import { AgentPlatformApi } from '../../credentials/AgentPlatformApi.credentials';

const ROOT = path.resolve(__dirname, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
	repository: { url: string };
	n8n: { nodes: string[] };
};
const REPOSITORY = pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
// what n8n appends to a codex Docs link (editor-ui NodeSettings)
const N8N_QUERY =
	'?utm_source=n8n_app&utm_medium=node_settings_modal-credential_link&utm_campaign=x';

/** Every Docs link with where it is set. */
function docsLinks(): Array<[string, string]> {
	const links: Array<[string, string]> = [
		['credential documentationUrl', new AgentPlatformApi().documentationUrl],
	];
	for (const dist of pkg.n8n.nodes) {
		const source = dist.replace(/^dist\//, '').replace(/\.js$/, '');
		const codex = JSON.parse(fs.readFileSync(path.join(ROOT, `${source}.json`), 'utf8')) as {
			resources?: Record<string, Array<{ url: string }>>;
		};
		for (const [kind, entries] of Object.entries(codex.resources ?? {}))
			for (const { url } of entries) links.push([`${path.basename(source)}.json ${kind}`, url]);
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const module = require(path.join(ROOT, source)) as Record<string, new () => unknown>;
		for (const NodeClass of Object.values(module)) {
			const { description } = new NodeClass() as { description?: { documentationUrl?: string } };
			if (description?.documentationUrl)
				links.push([`${path.basename(source)} documentationUrl`, description.documentationUrl]);
		}
	}
	return links;
}

/** The file or folder of the checkout a link opens, or why it opens none. */
function pageOf(link: string): string {
	if (link.includes('#')) return 'an anchor';
	const page = /^(?:\/(blob|tree)\/main\/(.+))?$/.exec(link.slice(REPOSITORY.length));
	if (!link.startsWith(REPOSITORY) || !page) return 'not a page of the repository';
	if (!page[1]) return '.';
	const target = path.join(ROOT, decodeURIComponent(page[2]));
	if (!fs.existsSync(target)) return 'no such file';
	return fs.statSync(target).isDirectory() === (page[1] === 'tree') ? page[2] : 'blob/tree mixed';
}

describe('the Docs links of the nodes and the credential', () => {
	const links = docsLinks();

	it('are set for the credential and each of the three nodes', () => {
		expect(REPOSITORY).toBe('https://github.com/agent-platform/n8n-nodes-agent-platform');
		const nodes = new Set(
			links.filter(([where]) => /primaryDocumentation/.test(where)).map(([w]) => w),
		);
		expect(nodes.size).toBe(pkg.n8n.nodes.length);
	});

	it.each(docsLinks())('%s: %s is a page of the repository, no anchor', (_where, link) => {
		const page = pageOf(link);
		expect({ link, page }).toEqual({
			link,
			page: expect.not.stringMatching(/^(an |not |no |blob)/),
		});
		// with n8n's query appended it opens the same page, at its top
		const opened = new URL(link + N8N_QUERY);
		expect({ page: `${opened.origin}${opened.pathname}`, hash: opened.hash }).toEqual({
			page: link,
			hash: '',
		});
	});

	it('the rule refuses an anchor, a missing file and another site', () => {
		expect(pageOf(`${REPOSITORY}/blob/main/README.md#credentials`)).toBe('an anchor');
		expect(pageOf(`${REPOSITORY}/blob/main/docs/no-such-page.md`)).toBe('no such file');
		expect(pageOf('https://www.npmjs.com/package/n8n-nodes-agent-platform')).toBe(
			'not a page of the repository',
		);
		expect(pageOf(`${REPOSITORY}/blob/main/docs/credentials.md`)).toBe('docs/credentials.md');
	});
});
