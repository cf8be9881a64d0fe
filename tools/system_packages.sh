#!/usr/bin/env bash
# The two system programs the suite drives: a PostgreSQL server (the storage tests start their own,
# bot/core/storage/pg_server.py) and Chromium (tests/browser/, through Playwright; never a browser
# download). `make test` runs this first; it installs only what is missing, with the distribution's
# apt-get, and only when it may (root, or sudo without a password). Elsewhere it says what to
# install and the tests that need the program are skipped with the same advice.
set -uo pipefail

missing=()
if ! command -v initdb >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    missing+=(postgresql)
fi
if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
    missing+=(chromium)
fi
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
    echo "not installed: ${missing[*]} (no apt-get here); the tests that need them will be skipped"
    exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
    as_root=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    as_root=(sudo -n)
else
    echo "not installed: ${missing[*]}; run: sudo apt-get install ${missing[*]}"
    echo "(the tests that need them will be skipped)"
    exit 0
fi
echo "installing ${missing[*]} with apt-get"
export DEBIAN_FRONTEND=noninteractive
if ! { ${as_root[@]+"${as_root[@]}"} apt-get update -q >/dev/null && ${as_root[@]+"${as_root[@]}"} apt-get install -y -q "${missing[@]}" >/dev/null; }; then
    echo "apt-get could not install ${missing[*]}; the tests that need them will be skipped"
fi
exit 0
