#!/usr/bin/env bash
# `npm test`: type check, lint and format check, unit and server tests (Vitest, real embedded PostgreSQL), then browser tests
# (Playwright driving Debian's Chromium against the production build on a throw-away database).
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

echo "== type check"
npx tsc --noEmit -p tsconfig.json
echo "== lint"
npm run --silent lint
echo "== format check"
npm run --silent format:check
echo "== unit and server tests"
npx vitest run
echo "== production build"
npx vite build --logLevel warn
echo "== browser tests"
npx playwright test
