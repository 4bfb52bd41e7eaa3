#!/usr/bin/env bash
# The system packages that the tests drive for real, found or installed before any test runs.
# Called first by `pnpm test` (package.json) and by .ci/run, so this is the one list of them.
#
# - Every package found: prints nothing, exits 0 (only shell built-ins and `id` run).
# - Some missing, as root on Debian or Ubuntu: one line saying what is installed and why, then
#   `apt-get update` once and `apt-get install -y` of exactly the missing packages.
# - Some missing, not root: the same through `sudo -n` where that works without a password;
#   otherwise it stops (exit 1) before any test, naming the command to run and the variables
#   that point the tests elsewhere.
#
# Variables: PI_CHROMIUM (a Chromium or Chrome for the browser tests, instead of `chromium` on the
# PATH), PI_TEST_POSTGRES_URL (a PostgreSQL server of your own: then no server binaries are needed),
# PI_POSTGRES_BIN (the folder of initdb and pg_ctl).
set -u

need() { packages+=("$1"); reasons+=("$2"); }

# Fills `packages` (Debian names), `reasons` (why each, in the same order) and `problems` (a variable
# that points at nothing, which no install can fix).
check() {
packages=()
reasons=()
problems=()
command -v tmux >/dev/null 2>&1 || need tmux "the CLI's terminal tests"
command -v strace >/dev/null 2>&1 || need strace "the session tests' system-call checks"
command -v ip >/dev/null 2>&1 || need iproute2 "the workers example's network namespaces"

if [ -n "${PI_CHROMIUM:-}" ]; then
  [ -f "$PI_CHROMIUM" ] && [ -x "$PI_CHROMIUM" ] || problems+=("PI_CHROMIUM=$PI_CHROMIUM is not an executable file")
else
  command -v chromium >/dev/null 2>&1 || need chromium "the browser tests: Chromium, driven by playwright-core"
fi

if [ -n "${PI_TEST_POSTGRES_URL:-}" ]; then
  : # the tests use that server
elif [ -n "${PI_POSTGRES_BIN:-}" ]; then
  [ -x "$PI_POSTGRES_BIN/initdb" ] || problems+=("PI_POSTGRES_BIN=$PI_POSTGRES_BIN has no initdb")
else
  found_postgres=""
  for initdb in /usr/lib/postgresql/*/bin/initdb; do [ -x "$initdb" ] && found_postgres=yes; done
  command -v initdb >/dev/null 2>&1 && found_postgres=yes
  [ -n "$found_postgres" ] || need postgresql "the PostgreSQL session tests: a throwaway server"
fi
}

check

if [ ${#problems[@]} -gt 0 ]; then
  for problem in "${problems[@]}"; do echo "system-deps: $problem." >&2; done
  exit 1
fi
[ ${#packages[@]} -eq 0 ] && exit 0

why=""
for i in "${!packages[@]}"; do why+="${why:+; }${packages[$i]} (${reasons[$i]})"; done

refuse() {
  {
    echo "system-deps: the tests need system packages that are missing: $why."
    echo "system-deps: $1 Install them with:"
    echo "    sudo apt-get install -y ${packages[*]}"
    echo "system-deps: or point the tests elsewhere: PI_CHROMIUM=/path/to/chrome for the browser tests, PI_TEST_POSTGRES_URL=postgres://user:password@host:5432/database for PostgreSQL."
  } >&2
  exit 1
}

command -v apt-get >/dev/null 2>&1 || refuse "There is no apt-get here (this step installs on Debian and Ubuntu)."
if [ "$(id -u 2>/dev/null)" = "0" ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true >/dev/null 2>&1; then
  as_root=(sudo -n)
else
  refuse "Installing them needs root, and this is not root (nor is sudo -n allowed)."
fi

echo "system-deps: installing $why with apt-get"
# apt's own output is shown only when it fails.
output=$("${as_root[@]}" apt-get update -qq 2>&1) || { echo "$output" >&2; refuse "apt-get update failed."; }
output=$("${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" 2>&1) || { echo "$output" >&2; refuse "apt-get install failed."; }
check
[ ${#packages[@]} -eq 0 ] || refuse "apt-get install ran, and these are still not found."
