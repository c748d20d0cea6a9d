#!/usr/bin/env bash
# The whole suite, as `npm test` runs it: type check, build, n8n's community checks on the source
# and the packed tarball, unit and integration tests against the emulator over loopback, then the
# end-to-end tests in real n8n 1.x and 2.x (installed once into a cache outside the repo).
set -euo pipefail
cd "$(dirname "$0")/.."
results="$(mktemp -d)"

step() { printf '\n== %s\n' "$*"; }

step "type check"
npx tsc --noEmit -p tsconfig.test.json

step "build"
npm run --silent build >/dev/null

step "lint: ESLint (n8n's community rules on the shipped source) and Prettier"
if [ "${RELEASE_CHECKED:-}" = 1 ]; then
  echo "done already (RELEASE_CHECKED=1: .ci/run ran npm run lint first)"
else
  npm run --silent lint
fi

step "release check: n8n's community checks and the package checks (source and packed tarball)"
if [ "${RELEASE_CHECKED:-}" = 1 ]; then
  echo "done already (RELEASE_CHECKED=1: .ci/run ran npm run release:check first)"
else
  node scripts/lint-package.mjs   # what npm run release:check runs, on the build above
fi

step "unit, infra and integration tests"
status=0
npx jest --selectProjects unit infra integration --json --outputFile="$results/fast.json" || status=$?

step "real n8n installs (first run only: several minutes)"
bash dev/n8n/install-n8n.sh node
bash dev/n8n/install-n8n.sh 1 & one=$!
bash dev/n8n/install-n8n.sh 2 & two=$!
wait "$one"; wait "$two"

step "end-to-end tests in real n8n 1.x and 2.x"
npx jest --selectProjects e2e --runInBand --json --outputFile="$results/e2e.json" || status=$?

node -e '
const fs = require("fs");
let passed = 0, failed = 0, pending = 0;
for (const f of process.argv.slice(1)) {
  if (!fs.existsSync(f)) { failed++; continue; }
  const r = JSON.parse(fs.readFileSync(f, "utf8"));
  passed += r.numPassedTests; failed += r.numFailedTests + r.numRuntimeErrorTestSuites; pending += r.numPendingTests;
}
console.log(`\n${passed} passed, ${failed} failed` + (pending ? `, ${pending} skipped` : ""));
' "$results/fast.json" "$results/e2e.json"
rm -rf "$results"
exit "$status"
