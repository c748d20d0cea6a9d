#!/usr/bin/env bash
# The whole suite, as `npm test` runs it: type check, build, n8n's community checks on the source
# and the packed tarball, unit and integration tests against the emulator over loopback, then the
# end-to-end tests in real n8n 2.x, and 1.x for the files whose behaviour differs there (installed
# once per lock into a cache outside the repo).
#
# Stages (docs/development.md, "How CI is laid out"): the real n8n installs start at once in the
# background and overlap the checks and the unit, infra and integration tests; the end-to-end tests
# wait for them; the pace's timing tests run before them, above the fast tests' priority. The jest
# runs use two workers (this machine's cores): a third end-to-end worker, beside queue mode's four
# n8n processes, loaded the machine past what n8n 2.x answered in time. Each stage prints its time,
# and the end prints the ten slowest test files.
set -euo pipefail
cd "$(dirname "$0")/.."
results="$(mktemp -d)"
begun=$SECONDS
stage_begun=$SECONDS
stage_name=""

# Prints the time of the stage that ends, then the heading of the next one.
step() {
	[ -n "$stage_name" ] && printf '[test] %s took %d s\n' "$stage_name" "$(( SECONDS - stage_begun ))"
	stage_name="$*"
	stage_begun=$SECONDS
	[ -n "$stage_name" ] && printf '\n== %s\n' "$stage_name"
	return 0
}

# Node 24, then both n8n lines side by side; each install prints "ready (N s)" or one sentence on
# failure. An install of the current lock is reused once the installer has seen it start.
install_all() {
	bash dev/n8n/install-n8n.sh node || return
	bash dev/n8n/install-n8n.sh 1 &
	local one=$! two=0
	bash dev/n8n/install-n8n.sh 2 || two=$?
	wait "$one" && return "$two"
}
install_all > >(sed -u 's/^/[n8n installs, in the background] /' >&2) 2>&1 &
installs=$!

# CHECKED=1: .ci/run ran these four first, side by side (release:check's build is in dist/)
checked() {
	[ "${CHECKED:-}" = 1 ] && echo "done already (CHECKED=1: .ci/run ran it beside the other checks)"
}

step "type check"
checked || npx tsc --noEmit -p tsconfig.test.json

step "build"
checked || npm run --silent build >/dev/null

step "lint: ESLint (n8n's community rules on the shipped source) and Prettier"
checked || npm run --silent lint

step "release check: n8n's community checks and the package checks (source and packed tarball)"
checked || node scripts/lint-package.mjs # what npm run release:check runs, on the build above

# JEST_CACHE_DIRECTORY: a jest cache of the run's own (.ci/run's, empty at its start)
jest_cache=()
[ -n "${JEST_CACHE_DIRECTORY:-}" ] && jest_cache=(--cacheDirectory "$JEST_CACHE_DIRECTORY")

# The timing tests read when the emulator, in their own process, saw each request, so nothing of
# this run may outrank them: they run here, beside the unit, infra and integration tests and the
# installs, all in this run's own session, where a nice value holds whatever the kernel's grouping
# (no process here is detached; the end-to-end run's n8n processes are, so the timing tests never
# run beside them). Where the run may raise a priority (as root, as CI runs) the timing tests get
# nice -10 and the rest keeps its own (a process at nice 19 waits so long that n8n-workflow's
# 250 ms regular-expression guard gives up); elsewhere the fast tests yield instead (nice 10). One
# file at a time, each in a new worker (a memory limit every worker passes); their output is
# printed whole when they end.
if nice -n -10 true 2>/dev/null; then
	timing_nice=(nice -n -10) fast_nice=()
else
	timing_nice=() fast_nice=(nice -n 10)
fi
step "unit, infra and integration tests, beside them the pace's timing tests (${timing_nice[*]:-${fast_nice[*]} for the fast tests}) and the n8n installs"
status=0
"${fast_nice[@]}" npx jest "${jest_cache[@]}" --selectProjects unit infra integration --maxWorkers=2 \
	--json --outputFile="$results/fast.json" &
fast=$!
timing_begun=$SECONDS
"${timing_nice[@]}" npx jest "${jest_cache[@]}" --selectProjects unit-timing pace-timing --maxWorkers=1 \
	--workerIdleMemoryLimit=1MB --json --outputFile="$results/pace.json" > "$results/pace.log" 2>&1 || status=$?
{
	echo "== the pace's timing tests, one file at a time (beside the unit, infra and integration tests)"
	cat "$results/pace.log"
	echo "[test] the pace's timing tests took $(( SECONDS - timing_begun )) s"
} >&2
wait "$fast" || status=$?

step "real n8n installs (seconds when installed from the current locks; several minutes from nothing)"
install_status=0
wait "$installs" || install_status=$?
# The installer's own check, in the foreground: says in one sentence what failed, if anything did.
installed=1
if [ "$install_status" != 0 ]; then
	{ bash dev/n8n/install-n8n.sh node && bash dev/n8n/install-n8n.sh 1 && bash dev/n8n/install-n8n.sh 2; } \
		|| installed=0
fi

step "end-to-end tests in real n8n (2.x; 1.x for the files that declare it)"
if [ "$installed" = 1 ]; then
	npx jest "${jest_cache[@]}" --selectProjects e2e --maxWorkers=2 --json --outputFile="$results/e2e.json" \
		|| status=$?
else
	echo "end-to-end tests not run: the n8n installs failed (their sentence is above)"
	status=1
fi

step ""
printf '[test] done in %d s\n' "$(( SECONDS - begun ))"
node scripts/test-summary.mjs "$results/fast.json" "$results/pace.json" "$results/e2e.json"
rm -rf "$results"
exit "$status"
