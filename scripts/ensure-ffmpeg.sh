#!/usr/bin/env bash
# The server decodes uploaded files with FFmpeg: the tests use the system's (Debian's ffmpeg, with
# its security fixes) rather than the 2018 static build of the npm packages. Installs it when it is
# missing and we are root; otherwise says how to get it and goes on with the bundled build.
set -euo pipefail
if command -v ffmpeg >/dev/null 2>&1 && command -v ffprobe >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "FFmpeg is missing: installing Debian's ffmpeg package..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq ffmpeg >/dev/null
  if command -v ffmpeg >/dev/null 2>&1 && command -v ffprobe >/dev/null 2>&1; then
    echo "FFmpeg installed: $(ffmpeg -hide_banner -version 2>/dev/null | head -n 1)"
    exit 0
  fi
fi
cat >&2 <<MSG
Warning: no system FFmpeg on PATH; the tests fall back to the 2018 build of the npm packages.
Install a current one, then run the tests again:
  Debian/Ubuntu:  sudo apt-get install -y ffmpeg
  macOS:          brew install ffmpeg
MSG
exit 0
