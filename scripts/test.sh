#!/usr/bin/env bash
# The whole suite, as `npm test` runs it: type check, build, n8n's community checks on the source
# and the packed tarball, unit and integration tests against the emulator over loopback, then the
# end-to-end tests in real n8n 2.x, and 1.x for the files whose behaviour differs there (installed
# once per lock into a cache outside the repo).
#
# Stages (docs/development.md, "How CI is laid out"): the real n8n installs start at once in the
# background and overlap the checks; then the pace's timing tests (raised above everything where
# the run may raise a priority), the unit, infra and integration tests and, once the installs are
# ready, the end-to-end tests run side by side (without a raised priority, the end-to-end tests
# after the others). The end-to-end run uses two workers (E2E_WORKERS; this machine's cores): a
# third, beside the fast tests, made the stage longer (971 s against 859) and loaded the machine
# past what n8n 2.x answered in time ("Database connection timed out"). Each part prints its time,
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

# CHECKED=1: .ci/run built and packed first, and runs the other three checks in its last stage
checked() {
	[ "${CHECKED:-}" = 1 ] && echo "left to .ci/run (CHECKED=1: it built and packed first, and runs the other checks beside the smoke in its last stage)"
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

# The timing tests read when the emulator, in their own process, saw each request, so nothing may
# outrank them. Where the run may raise a priority (as root, as CI runs) they run in a session of
# their own (`setsid`: with the kernel's automatic grouping, a scheduling group) whose group and
# processes are raised to nice -10: above everything else, the end-to-end run's n8n processes (each
# detached, a group of its own) and a neighbour's included. They mostly wait, so what they take
# from the rest is little; then the unit, infra and integration tests and the end-to-end tests run
# beside them, the end-to-end tests as soon as the installs are ready. The fast tests run in a
# session of their own (a scheduling group, at normal priority): in the run's own session they
# shared one group with the end-to-end workers and their Chromium, while every n8n has a group of
# its own (`editor` took 302 s beside them, 162 s alone). Lowered further (nice 5), one of them
# was starved past the fixed 300 ms it then had (it now waits for what it needs). Where no
# priority can be raised, the timing tests run beside the fast tests only (these yield: nice 10),
# and the end-to-end tests after both. The timing tests run one file at a time, each in a new worker (a
# memory limit every worker passes); their output and the fast tests' are printed whole when they
# end.
timing_tests=(npx jest "${jest_cache[@]}" --selectProjects unit-timing pace-timing --maxWorkers=1
	--workerIdleMemoryLimit=1MB --json --outputFile="$results/pace.json")
# Raised only where both hold: the nice value, and the group's when the kernel groups by session
# (a container's root may lack the right to either).
can_raise() {
	nice -n -10 true 2>/dev/null || return 1
	[ "$(cat /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null || echo 0)" = 1 ] || return 0
	setsid --wait bash -c 'echo -10 > "/proc/$$/autogroup"' 2>/dev/null
}
if can_raise; then
	raised=1
	fast_nice=(setsid --wait bash -c 'exec "$@"' fast)
	timing_run=(setsid --wait bash -c 'echo -10 > "/proc/$$/autogroup" 2>/dev/null; exec nice -n -10 "$@"' timing
		"${timing_tests[@]}")
else
	raised=0 fast_nice=(nice -n 10) timing_run=("${timing_tests[@]}")
fi
# Runs a command in the background into a log of its own, printed whole with its time when it ends.
begin_logged() {
	local name="$1"
	shift
	(
		started=$SECONDS rc=0
		"$@" > "$results/$name.log" 2>&1 || rc=$?
		{
			printf '\n== %s\n' "$name"
			cat "$results/$name.log"
			printf '[test] %s took %d s%s\n' "$name" "$(( SECONDS - started ))" "$([ "$rc" = 0 ] || echo ", FAILED (exit $rc)")"
		} >&2
		echo "$name" >> "$results/ended"
		exit "$rc"
	) &
}
status=0
# ONLY_E2E_LEFT_FILE (.ci/run sets it): created once the timing and the fast tests have ended and
# only the end-to-end tests run, which leave a good part of the CPU unused then (docs/development.md,
# "What each stage takes"); .ci/run starts npm start's smoke there.
only_e2e_left=""
if [ -n "${ONLY_E2E_LEFT_FILE:-}" ]; then
	(
		until [ -f "$results/ended" ] && [ "$(wc -l < "$results/ended")" -ge 2 ]; do
			kill -0 $$ 2>/dev/null || exit 0 # npm test has ended without them
			sleep 1
		done
		: > "$ONLY_E2E_LEFT_FILE"
	) &
	only_e2e_left=$!
fi
if [ "$raised" = 1 ]; then
	step "the pace's timing tests (their own session at nice -10), the unit, infra and integration tests and, once the installs are ready, the end-to-end tests, side by side"
else
	step "unit, infra and integration tests (nice 10), beside them the pace's timing tests and the installs"
fi
begin_logged "the pace's timing tests, one file at a time" "${timing_run[@]}"
timing=$!
begin_logged "unit, infra and integration tests" "${fast_nice[@]}" npx jest "${jest_cache[@]}" \
	--selectProjects unit infra integration --maxWorkers=2 --json --outputFile="$results/fast.json"
fast=$!
if [ "$raised" = 0 ]; then
	wait "$timing" || status=$?
	wait "$fast" || status=$?
fi

install_begun=$SECONDS
install_status=0
wait "$installs" || install_status=$?
# The installer's own check, in the foreground: says in one sentence what failed, if anything did.
installed=1
if [ "$install_status" != 0 ]; then
	{ bash dev/n8n/install-n8n.sh node && bash dev/n8n/install-n8n.sh 1 && bash dev/n8n/install-n8n.sh 2; } \
		|| installed=0
fi
printf '[test] waited %d s for the real n8n installs (seconds when installed from the current locks; several minutes from nothing)\n' "$(( SECONDS - install_begun ))"

e2e_begun=$SECONDS
if [ "$installed" = 1 ]; then
	printf '\n== end-to-end tests in real n8n (2.x; 1.x for the files that declare it)\n'
	npx jest "${jest_cache[@]}" --selectProjects e2e --maxWorkers="${E2E_WORKERS:-2}" --json --outputFile="$results/e2e.json" \
		--reporters=default --reporters=./test/setup/allFilesStarted.js || status=$?
else
	echo "end-to-end tests not run: the n8n installs failed (their sentence is above)"
	status=1
fi
printf '[test] the end-to-end tests took %d s\n' "$(( SECONDS - e2e_begun ))"
if [ "$raised" = 1 ]; then
	wait "$timing" || status=$?
	wait "$fast" || status=$?
fi

[ -z "$only_e2e_left" ] || kill "$only_e2e_left" 2>/dev/null || true
step ""
printf '[test] done in %d s\n' "$(( SECONDS - begun ))"
node scripts/test-summary.mjs "$results/fast.json" "$results/pace.json" "$results/e2e.json"
rm -rf "$results"
exit "$status"
