#!/usr/bin/env bash
# Make sure pw_adaptive can launch a Chromium: Playwright's own if installed,
# else the one named by PW_ADAPTIVE_CHROMIUM, else a system Chromium. On a
# Debian machine without one, install Debian's chromium package when root.
set -euo pipefail
PY=${1:-python3}

found() {
  "$PY" -c 'import sys; from pw_adaptive.render.browser import find_chromium; p = find_chromium(); print(p or ""); sys.exit(0 if p else 1)'
}

if path=$(found); then
  echo "chromium: $path"
  exit 0
fi
if [ -n "${PW_ADAPTIVE_CHROMIUM:-}" ]; then
  echo "PW_ADAPTIVE_CHROMIUM=$PW_ADAPTIVE_CHROMIUM does not exist or is not executable" >&2
  exit 1
fi
# Playwright's own download needs the internet; try it only briefly.
if timeout 120 "$PY" -m playwright install chromium >/dev/null 2>&1 && path=$(found); then
  echo "chromium: $path (Playwright's own)"
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing Debian's chromium (apt-get install chromium fonts-noto-cjk)..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium fonts-noto-cjk >/dev/null
  if path=$(found); then
    echo "chromium: $path"
    exit 0
  fi
fi
cat >&2 <<'MSG'
No usable Chromium found. Do one of:
  python -m playwright install chromium       (Playwright's own build; needs internet)
  sudo apt-get install chromium fonts-noto-cjk (Debian/Ubuntu system Chromium)
  export PW_ADAPTIVE_CHROMIUM=/path/to/chromium
MSG
exit 1
