#!/usr/bin/env bash
# The browser tests drive Debian's Chromium (never a downloaded browser). Installs it when it is
# missing and we are root; otherwise explains how to get it and fails: browser tests never skip.
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Chromium is missing: installing Debian's chromium package..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium >/dev/null
  if [ -x "$CHROMIUM" ]; then
    echo "Chromium installed: $("$CHROMIUM" --version 2>/dev/null || echo "$CHROMIUM")"
    exit 0
  fi
fi
cat >&2 <<MSG
The browser tests need Chromium at $CHROMIUM and it is not there.
Install it, then run the tests again:
  Debian/Ubuntu:  sudo apt-get install -y chromium
  elsewhere:      install Chromium or Chrome and set CHROMIUM_PATH=/path/to/chromium
MSG
exit 1
