#!/usr/bin/env bash
# `npm test`: every check the product must pass, cheapest first.
#
# Each step writes its whole output to .test-logs/<step>.log and prints one line; a failing step also
# prints the end of its log. Output stays a few kilobytes whatever the machine's speed (a CI runner
# that reads only part of a long output can otherwise stall the run).
#
# Budget: from a clean clone, on 2 cores with half the machine busy (.ci/run), the whole run takes at
# most 12 minutes and Vitest at most 5. Each step has a share of it, printed with its time, and a time
# limit of five times that share. Hangs are caught much sooner and by name, inside the steps: Vitest's
# watchdog ends a file stuck for 4 minutes, Playwright a test stuck for 3. The step limit is only the
# last net, so it is wide enough that a slow but working run still passes (over budget, and told so).
# The end prints the totals against the budget and says when they are over it; docs/performance.md
# has the measured figures.
set -euo pipefail
cd "$(dirname "$0")/.."

budget_seconds=720
vitest_budget_seconds=300
limit_factor=5

# Playwright drives Debian's Chromium (its own browser download cannot work here): its headless shell
# when installed, the lighter browser Playwright itself runs headless (the browser tests in about half
# the time), else the full browser, which `npm run bench` needs as well. As root, each one missing is
# installed; the tests go on in the full browser if the shell cannot be.
# A mirror that does not answer fails within a minute instead of hanging the run.
apt_options=(-o Acquire::http::Timeout=30 -o Acquire::https::Timeout=30 -o Acquire::Retries=1)
apt_install() {
  [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null || return 1
  echo "Installing Debian $1 for the browser tests…"
  if [ -z "${apt_updated:-}" ]; then apt-get "${apt_options[@]}" update -qq && apt_updated=1 || return 1; fi
  DEBIAN_FRONTEND=noninteractive apt-get "${apt_options[@]}" install -y -qq "$1" >/dev/null
}
if [ ! -x /usr/bin/chromium ] && ! apt_install chromium; then
  echo "The browser tests need Debian's Chromium at /usr/bin/chromium." >&2
  echo "Install it with: sudo apt-get install -y chromium chromium-headless-shell   (then run npm test again)" >&2
  exit 1
fi
if [ ! -x /usr/bin/chromium-headless-shell ] && ! apt_install chromium-headless-shell; then
  echo "The browser tests run in /usr/bin/chromium; with chromium-headless-shell installed they take about half the time."
fi

logs=.test-logs
rm -rf "$logs" && mkdir -p "$logs"
export NO_COLOR=1 FORCE_COLOR=0
# The migrated PGlite database the unit tests make, kept for the browser tests' server to start from
# instead of creating and migrating a cluster: about a quarter of its start (docs/performance.md).
export KEEP_MIGRATED_PGLITE_DUMP="$PWD/$logs/pglite-migrated.tar"

started=$SECONDS
declare -A took=()
over=0

minutes() { printf '%dm%02ds' "$(($1 / 60))" "$(($1 % 60))"; }

# against LABEL SECONDS BUDGET: one line, and OVER BUDGET when it is.
against() {
  if [ "$2" -gt "$3" ]; then
    printf '%s: %s, OVER BUDGET (%s)\n' "$1" "$(minutes "$2")" "$(minutes "$3")"
    over=1
  else
    printf '%s: %s, within budget (%s)\n' "$1" "$(minutes "$2")" "$(minutes "$3")"
  fi
}

# The totals, also when a step fails. RUN_STARTED_AT (epoch seconds, set by .ci/run before `npm ci`)
# adds the whole run from the clean clone, install included.
report() {
  local status=$?
  echo "=== time"
  against "npm test" "$((SECONDS - started))" "$budget_seconds"
  if [ -n "${RUN_STARTED_AT:-}" ]; then
    against "clean clone to here (npm ci && npm test)" "$(($(date +%s) - RUN_STARTED_AT))" "$budget_seconds"
  fi
  against "vitest" "${took[vitest]:-0}" "$vitest_budget_seconds"
  if [ "$over" = 1 ]; then
    echo "The suite is over its budget: find the slow step above (its log is in $logs/) and make it cheaper."
  fi
  exit "$status"
}
trap report EXIT

# run_step NAME SHARE_SECONDS COMMAND...: runs COMMAND, its output in $logs/NAME.log, with a time limit
# of five times its share of the budget (the shares add up to the 12 minutes); its exit status and
# seconds go to $logs/NAME.status.
run_step() {
  local name=$1 share=$2 step_started=$SECONDS status=0
  shift 2
  timeout --kill-after=30 "$((share * limit_factor))" "$@" >"$logs/$name.log" 2>&1 || status=$?
  echo "$status $((SECONDS - step_started))" >"$logs/$name.status"
}

# report_step NAME SHARE_SECONDS: one line for a finished step; a failed one also prints the end of its
# log and ends the run.
report_step() {
  local name=$1 share=$2 log="$logs/$1.log" status seconds
  read -r status seconds <"$logs/$name.status"
  took[$name]=$seconds
  if [ "$status" = 0 ]; then
    printf 'passed (%ss; share %ss)\n' "$seconds" "$share"
    return 0
  fi
  if [ "$status" = 124 ] || [ "$status" = 137 ]; then
    printf 'TIMED OUT after %s (%s times its share of the budget)\n' "$(minutes "$((share * limit_factor))")" "$limit_factor"
  else
    printf 'FAILED (exit %s, after %ss)\n' "$status" "$seconds"
  fi
  echo "--- the end of $log (the whole output is in that file) ---"
  tail -c 48000 "$log"
  exit 1
}

# step NAME SHARE_SECONDS COMMAND...: one step on its own.
step() {
  printf '=== %s … ' "$1"
  run_step "$@"
  report_step "$1" "$2"
}

# The static checks each run in one thread and read the sources only (the catalogue step writes only
# the .po files, which none of the others reads), so they run at once: on 2 cores together they take
# about as long as the longest alone. answer-schemas: contract/answerSchemas.json is what the answer
# types say (scripts/answerSchemas.ts).
run_step typecheck 45 npm run --silent typecheck &
run_step lint 45 npm run --silent lint &
run_step catalogue 15 npx lingui extract --clean &
run_step answer-schemas 15 node --import tsx scripts/answerSchemas.ts --check &
wait
for checked in 'typecheck 45' 'lint 45' 'catalogue 15' 'answer-schemas 15'; do
  printf '=== %s … ' "${checked% *}"
  report_step $checked
done
step vitest "$vitest_budget_seconds" npx vitest run --reporter=dot --reporter=./scripts/vitestWatchdog.ts --silent=passed-only
grep -aE '^ *(Test Files|Tests) ' "$logs/vitest.log" || true
step build 45 npx vite build --logLevel warn
step playwright 270 npx playwright test --reporter=dot
grep -aE '^ *[0-9]+ (passed|flaky|skipped)' "$logs/playwright.log" || true
