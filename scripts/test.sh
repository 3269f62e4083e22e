#!/usr/bin/env bash
# `npm test`: every check the product must pass, in the order of ARCHITECTURE.md §10.
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

step() { printf '\n=== %s ===\n' "$1"; }
step "typecheck" && npm run --silent typecheck
step "lint" && npm run --silent lint
step "catalogue (extract)" && npx lingui extract --clean >/dev/null
step "vitest (unit, charts, paths, server on PGlite and PostgreSQL)" && npx vitest run
step "build" && npx vite build --logLevel warn
step "playwright (Debian Chromium, real server)" && npx playwright test
