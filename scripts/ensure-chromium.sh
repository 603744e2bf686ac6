#!/usr/bin/env bash
# The browser tests drive Debian's Chromium (never a downloaded browser): its headless shell (package
# chromium-headless-shell) for most journeys, and the full browser (package chromium) for those that
# need notifications (e2e/support/browser.ts). Installs what is missing when we are root; otherwise
# explains how to get it and fails: browser tests never skip. CHROMIUM_PATH names one browser for both.
set -euo pipefail
if [ -n "${CHROMIUM_PATH:-}" ]; then
  declare -A WANTED=(["$CHROMIUM_PATH"]="")
else
  declare -A WANTED=([/usr/bin/chromium-headless-shell]=chromium-headless-shell [/usr/bin/chromium]=chromium)
fi
missing_paths=()
missing_packages=()
for executable in "${!WANTED[@]}"; do
  if [ ! -x "$executable" ]; then
    missing_paths+=("$executable")
    [ -n "${WANTED[$executable]}" ] && missing_packages+=("${WANTED[$executable]}")
  fi
done
if [ "${#missing_paths[@]}" -eq 0 ]; then
  exit 0
fi
if [ "${#missing_packages[@]}" -gt 0 ] && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Chromium is missing: installing Debian's ${missing_packages[*]}..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing_packages[@]}" >/dev/null
  still_missing=0
  for executable in "${missing_paths[@]}"; do
    if [ -x "$executable" ]; then
      echo "Installed: $("$executable" --version 2>/dev/null || echo "$executable")"
    else
      still_missing=1
    fi
  done
  [ "$still_missing" = "0" ] && exit 0
fi
cat >&2 <<MSG
The browser tests need Chromium at ${missing_paths[*]} and it is not there.
Install it, then run the tests again:
  Debian/Ubuntu:  sudo apt-get install -y chromium chromium-headless-shell
  elsewhere:      install Chromium or Chrome and set CHROMIUM_PATH=/path/to/chromium
MSG
exit 1
