#!/usr/bin/env bash
# Installs Debian packages the test suite needs (chromium, postgresql, redis) when missing and apt is usable.
# Usage: scripts/system-packages.sh chromium postgresql redis-server
set -uo pipefail
missing=()
for pkg in "$@"; do
  case "$pkg" in
    chromium) command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || missing+=(chromium) ;;
    postgresql) ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql) ;;
    redis-server) command -v redis-server >/dev/null 2>&1 || missing+=(redis-server) ;;
    *) dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg") ;;
  esac
done
[ ${#missing[@]} -eq 0 ] && exit 0
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  echo "system-packages: installing ${missing[*]}"
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  exit $?
fi
echo "system-packages: missing ${missing[*]}; install with: sudo apt-get install ${missing[*]}" >&2
exit 1
