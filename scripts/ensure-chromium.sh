#!/usr/bin/env bash
# Make sure pw_adaptive can launch a Chromium: Playwright's own if installed,
# else the one named by PW_ADAPTIVE_CHROMIUM, else a system Chromium (its
# headless shell first). On a Debian machine without one, install Debian's
# chromium, chromium-headless-shell and fonts-noto-cjk packages when root.
set -euo pipefail
PY=${1:-python3}

# Prints what a crawl will launch: Playwright's own Chromium when it is
# installed (and PW_ADAPTIVE_CHROMIUM names nothing), else find_chromium's.
found() {
  "$PY" - <<'PY'
import os, sys
from pw_adaptive.render import browser as b
if not os.environ.get(b.CHROMIUM_ENV, "").strip() and (
    b.playwright_headless_shell_installed() or b.playwright_chromium_installed()
):
    print("Playwright's own Chromium")
    sys.exit(0)
try:
    path = b.find_chromium()
except b.BrowserNotFoundError:  # PW_ADAPTIVE_CHROMIUM names no executable: said below
    path = None
print(path or "")
sys.exit(0 if path else 1)
PY
}

can_apt() {
  [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1
}

# Debian's headless shell renders the same pages with less work than the full
# browser (README, "Browser"); a machine with the full browser only gets it
# added once, when the distribution has the package. Nothing fails without it.
add_headless_shell() {
  case "$1" in
    *headless-shell* | "Playwright's own"*) return 0 ;;
  esac
  if [ -z "${PW_ADAPTIVE_CHROMIUM:-}" ] && can_apt &&
    apt-cache show chromium-headless-shell >/dev/null 2>&1; then
    echo "adding Debian's chromium-headless-shell (apt-get install chromium-headless-shell)..."
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell >/dev/null 2>&1 ||
      echo "could not install chromium-headless-shell; the full Chromium will do" >&2
  fi
}

if path=$(found); then
  add_headless_shell "$path"
  echo "chromium: $(found)"
  exit 0
fi
if [ -n "${PW_ADAPTIVE_CHROMIUM:-}" ]; then
  echo "PW_ADAPTIVE_CHROMIUM=$PW_ADAPTIVE_CHROMIUM does not exist or is not executable" >&2
  exit 1
fi
# Playwright's own download needs the internet; try it only briefly.
if timeout 120 "$PY" -m playwright install chromium >/dev/null 2>&1 && path=$(found); then
  echo "chromium: $path"
  exit 0
fi
if can_apt; then
  echo "installing Debian's chromium (apt-get install chromium chromium-headless-shell fonts-noto-cjk)..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # The headless shell is a separate package only in newer releases.
  apt-get install -y -qq chromium chromium-headless-shell fonts-noto-cjk >/dev/null ||
    apt-get install -y -qq chromium fonts-noto-cjk >/dev/null
  if path=$(found); then
    echo "chromium: $path"
    exit 0
  fi
fi
cat >&2 <<'MSG'
No usable Chromium found. Do one of:
  python -m playwright install chromium       (Playwright's own build; needs internet)
  sudo apt-get install chromium chromium-headless-shell fonts-noto-cjk
                                              (Debian/Ubuntu system Chromium)
  export PW_ADAPTIVE_CHROMIUM=/path/to/chromium
MSG
exit 1
