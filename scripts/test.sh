#!/usr/bin/env bash
# `npm test`: every check the product must pass, in the order of ARCHITECTURE.md §10.
#
# Each step writes its whole output to .test-logs/<step>.log and prints one line; a failing step also
# prints the end of its log. Output stays a few kilobytes whatever the machine's speed (a CI runner
# that reads only part of a long output can otherwise stall the run), and every step has a time
# limit, so a hang fails with its step's name instead of running until CI gives up.
set -euo pipefail
cd "$(dirname "$0")/.."

# Playwright drives Debian's Chromium (its own browser download cannot work here).
if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    echo "Installing Debian chromium for the browser tests…"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "The browser tests need Debian's Chromium at /usr/bin/chromium." >&2
    echo "Install it with: sudo apt-get install -y chromium   (then run npm test again)" >&2
    exit 1
  fi
fi

logs=.test-logs
rm -rf "$logs" && mkdir -p "$logs"
export NO_COLOR=1 FORCE_COLOR=0

# step NAME MINUTES COMMAND...: runs COMMAND with a time limit, its output in $logs/NAME.log.
step() {
  local name=$1 minutes=$2 log="$logs/$1.log" started=$SECONDS status=0
  shift 2
  printf '=== %s … ' "$name"
  timeout --kill-after=30 "$((minutes * 60))" "$@" >"$log" 2>&1 || status=$?
  if [ "$status" = 0 ]; then
    printf 'passed (%ss)\n' "$((SECONDS - started))"
    return 0
  fi
  if [ "$status" = 124 ] || [ "$status" = 137 ]; then
    printf 'TIMED OUT after %s minutes\n' "$minutes"
  else
    printf 'FAILED (exit %s)\n' "$status"
  fi
  echo "--- the end of $log (the whole output is in that file) ---"
  tail -c 48000 "$log"
  exit 1
}

step typecheck 10 npm run --silent typecheck
step lint 10 npm run --silent lint
step catalogue 5 npx lingui extract --clean
# Dot reporter and console output only of failing tests: the path tests' names are long.
step vitest 30 npx vitest run --reporter=dot --silent=passed-only
grep -aE '^ *(Test Files|Tests) ' "$logs/vitest.log" || true
step build 10 npx vite build --logLevel warn
step playwright 25 npx playwright test --reporter=dot
grep -aE '^ *[0-9]+ (passed|flaky|skipped)' "$logs/playwright.log" || true
