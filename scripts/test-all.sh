#!/usr/bin/env bash
# `npm test`: type check, lint and format check, unit tests (their wall time on a line of its own), server tests
# (Vitest, real embedded PostgreSQL), then browser tests (Playwright driving Debian's Chromium against the production
# build on a throw-away database).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ]; then
  echo "Installing Debian's chromium for the browser tests..."
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

if ! command -v pdftotext >/dev/null; then
  echo "Installing Debian's poppler-utils (pdftotext) for the PDF tests..."
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq poppler-utils >/dev/null
fi

# The three static checks are single-threaded: side by side they take the time of the longest (ESLint's).
echo "== type check, lint and format check"
checks=.tmp/checks
mkdir -p "$checks"
npx tsc --noEmit -p tsconfig.json >"$checks/typecheck.log" 2>&1 &
tsc_pid=$!
npm run --silent lint >"$checks/lint.log" 2>&1 &
lint_pid=$!
npm run --silent format:check >"$checks/format.log" 2>&1 &
format_pid=$!
failed=0
for check in "typecheck:$tsc_pid" "lint:$lint_pid" "format:$format_pid"; do
  if ! wait "${check#*:}"; then
    echo "-- ${check%%:*} failed:"
    cat "$checks/${check%%:*}.log"
    failed=1
  fi
done
[ "$failed" = 0 ] || exit 1
echo "   all three passed"
# Two invocations, so the unit project's wall time is its own.
echo "== unit tests"
unit_start=$(date +%s%N)
npx vitest run --project unit --project domain
echo "unit tests wall time: $(( ($(date +%s%N) - unit_start) / 1000000 )) ms"
echo "== server tests"
npx vitest run --project server
echo "== production build"
npx vite build --logLevel warn
echo "== browser tests"
npx playwright test
