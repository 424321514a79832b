#!/usr/bin/env bash
# A scheduled, read-only health check of an Animal Store server: the health profile,
# compared with the previous run's report. Made to be one line of a crontab:
#
#   */15 * * * * /opt/animal-store-conformance/examples/health-check.sh /etc/animal-store/health.env >> /var/log/animal-store-health.log 2>&1
#
# Argument: the settings file (BASE_URL, API_KEY, QUICKSTART_BASE_URL, RETRIES, ...),
# one NAME=value a line as in .env.example. Without BASE_URL the embedded reference
# server is checked only when no other line names a target (API_KEY, ...): a key with
# no address is refused (exit 2); TARGET=embedded checks the embedded server anyway. It is handed to the tool as --dotenv; this
# script never reads it, so the key is never in this script's environment or output.
# Settings the process environment holds win over the file (see --help); the script
# sets three itself, with flags, which win over both: --profile health, --report-dir
# and --baseline (lines for PROFILE, REPORT_DIR or BASELINE in the file are ignored).
# Give absolute paths in the file (EXPECTED_FAILURES=/etc/animal-store/...).
#
# Environment (all optional; in a crontab, NAME=value lines or before the command):
#   STATE_DIR         where the reports go (compliance.json, junit.xml, report.html,
#                     metrics.prom, exchanges.har, and for a judged run certificate.json
#                     and badge.svg); default /var/lib/animal-store-health. Its
#                     compliance.json, whatever run wrote it, is the next run's
#                     --baseline (the tool reads it before the run overwrites it).
#   ON_NOT_COMPLIANT  an executable (a path, or a name on PATH; no arguments: wrap a
#                     longer command in a small script), run on exit 1: an answer
#                     showed a MUST requirement broken.
#   ON_NOT_CHECKED    an executable, run on any other exit but 0: the check could not
#                     be made or was incomplete (2: target down, key rejected, bad
#                     settings, a MUST that could not be judged; 130/143: stopped by a
#                     signal; or this script's own refusals). An outage of the check,
#                     not a verdict on the server.
#                     Each hook is run with two arguments: STATE_DIR and the exit code.
#                     After a configuration error (exit 2 before the run) the tool
#                     still writes its reports there, not tested, with the reason
#                     (compared with the baseline, whose failing state they carry
#                     on); only when STATE_DIR itself cannot take them is none written.
#   NODE              the Node.js binary (20.18 or later); default: node on PATH. Cron's
#                     PATH is short (/usr/bin:/bin): set it when node is elsewhere.
#
# Exit code: the tool's (0 compliant, 1 not compliant, 2 not checked, 130/143 stopped),
# or 2 when this script refuses to start (no settings file, dist/ not built, no node).
# A hook that fails is reported in the log and does not change the exit code.
#
# The tool is the clone's own build, called by its path: never through npx or the npm
# registry, where the package name may belong to someone else.
set -euo pipefail

# the clone this script is in (examples/..), wherever it is called from
ROOT="$(dirname "$(dirname "$(readlink -f "$0")")")"
TOOL="$ROOT/dist/cli/main.js"
STATE_DIR="${STATE_DIR:-/var/lib/animal-store-health}"
case "$STATE_DIR" in /*) ;; *) STATE_DIR="$PWD/$STATE_DIR" ;; esac
NODE="${NODE:-node}"

say() { printf '%s health-check: %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$*"; }

run_hook() { # name, exit code
  local name="$1" code="$2" hook
  hook="${!name:-}"
  [ -n "$hook" ] || return 0
  say "running $name ($hook)"
  "$hook" "$STATE_DIR" "$code" || say "$name failed with exit code $?"
}

on_exit() {
  local code=$?
  trap - EXIT
  set +e
  case "$code" in
    0) ;;
    1) run_hook ON_NOT_COMPLIANT "$code" ;;
    *) run_hook ON_NOT_CHECKED "$code" ;;
  esac
  exit "$code"
}
trap on_exit EXIT

# A SIGINT or SIGTERM sent to the process group reaches the tool too, which stops and
# writes its reports (exit 130/143); the script waits for it and calls ON_NOT_CHECKED.
trap 'say "signal received: waiting for the tool to write its reports"' INT TERM

if [ "$#" -ne 1 ]; then
  say "usage: $0 SETTINGS_FILE (with STATE_DIR, ON_NOT_COMPLIANT, ON_NOT_CHECKED in the environment; see the header of this script)"
  exit 2
fi
settings="$1"
if [ ! -f "$settings" ] || [ ! -r "$settings" ]; then
  say "cannot read the settings file $settings"
  exit 2
fi
if [ ! -f "$TOOL" ]; then
  say "the tool is not built: $TOOL is missing; run npm ci (or npm run build) in $ROOT"
  exit 2
fi
if ! command -v "$NODE" > /dev/null; then
  say "no Node.js: $NODE is not on PATH (${PATH:-}); set NODE=/path/to/node"
  exit 2
fi

args=(--dotenv "$settings" --profile health --report-dir "$STATE_DIR")
if [ -f "$STATE_DIR/compliance.json" ]; then
  args+=(--baseline "$STATE_DIR/compliance.json")
fi

written_at() { stat -c %y "$STATE_DIR/compliance.json" 2> /dev/null || true; }
before="$(written_at)"
code=0
"$NODE" "$TOOL" "${args[@]}" || code=$?
if [ "$(written_at)" != "$before" ]; then
  say "exit code $code; reports written to $STATE_DIR"
else
  say "exit code $code; no report written (the line above says why)"
fi
exit "$code"
