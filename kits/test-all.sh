#!/usr/bin/env bash
# Play one whole match of every ruleset with every starter kit against a running server,
# each at a table filled with a house bot; fail if any match fails (no outcome, or the
# kit's seat ejected). Also checks each kit's reconnection (drop the connection mid-game,
# resume the session).
#
#   kits/test-all.sh SERVER_TCP SERVER_HTTP        e.g. kits/test-all.sh 127.0.0.1:7000 127.0.0.1:8080
#
# "Every ruleset" is the server's own list (GET http://SERVER_HTTP/api/rulesets), so a
# ruleset added to the server is played by every kit (and fails until each kit has a bot
# for it); if the list cannot be read, that counts as a failure (no list is assumed).
#
# Environment: KITS (default "python javascript javascript-ws rust"), RULESETS (default:
# the server's; set it to play only these), HOUSE_BOT (default random), GAME_TIMEOUT (s,
# default 300), RUST_KIT_BIN (the Rust kit's prebuilt `arbiter-kit-play`, default
# target/debug/arbiter-kit-play under the repository: build it first with
# `cargo build -p arbiter-kit`; this script never runs cargo).
set -u
export PYTHONDONTWRITEBYTECODE=1

if [ $# -ne 2 ]; then
  echo "usage: $0 SERVER_TCP SERVER_HTTP" >&2
  exit 2
fi
TCP=$1
HTTP=$2
HERE=$(cd "$(dirname "$0")" && pwd)
KITS=${KITS:-python javascript javascript-ws rust}
RUST_KIT_BIN=${RUST_KIT_BIN:-$(dirname "$HERE")/target/debug/arbiter-kit-play}
RULESETS=${RULESETS:-}
HOUSE_BOT=${HOUSE_BOT:-random}
GAME_TIMEOUT=${GAME_TIMEOUT:-300}
PASSWORD=kit-test-pw
TAG=$$

failures=0
runs=0

# run LABEL COMMAND...: run one game, print its result line and how long it took.
run() {
  local label=$1
  shift
  local start end output status
  start=$(date +%s.%N)
  output=$(timeout "$GAME_TIMEOUT" "$@" 2>&1)
  status=$?
  end=$(date +%s.%N)
  runs=$((runs + 1))
  local seconds
  seconds=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
  if [ "$status" -eq 0 ] && [[ $label == *reconnecting* ]] && ! grep -q '^reconnected' <<<"$output"; then
    status=1
    output="$output
(the kit never reconnected)"
  fi
  if [ "$status" -eq 0 ]; then
    echo "PASS $label (${seconds} s): $(echo "$output" | grep '^game ' | tail -1)"
  else
    failures=$((failures + 1))
    echo "FAIL $label (${seconds} s, exit $status):"
    echo "$output" | tail -20 | sed 's/^/    /'
  fi
}

kit_command() { # kit ruleset name -> the command line of one game
  local kit=$1 ruleset=$2 name=$3
  case $kit in
    python) echo python3 "$HERE/python/play.py" --server "$TCP" --http "$HTTP" ;;
    javascript) echo node "$HERE/javascript/play.js" --server "$TCP" --http "$HTTP" ;;
    javascript-ws) echo node "$HERE/javascript/play.js" --transport ws --http "$HTTP" ;;
    rust) echo "$RUST_KIT_BIN" --server "$TCP" --http "$HTTP" ;;
    *) echo "unknown kit $kit" >&2; return 1 ;;
  esac
}

# missing KIT WHAT: the kit cannot run here; counts as one failed run.
missing() {
  echo "FAIL $1: $2"
  failures=$((failures + 1))
  runs=$((runs + 1))
}

# server_rulesets: the ids of the server's rulesets, space-separated (GET /api/rulesets,
# never through a proxy); on failure a one-line reason on stderr and a non-zero exit.
server_rulesets() {
  python3 -c '
import json, sys, urllib.request
url = "http://%s/api/rulesets" % sys.argv[1]
try:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(url, timeout=30) as reply:
        ids = [ruleset["id"] for ruleset in json.load(reply)]
except Exception as e:  # noqa: BLE001 - any failure is reported, none is hidden
    sys.exit("cannot read the rulesets from %s: %s" % (url, e))
if not ids:
    sys.exit("%s lists no rulesets" % url)
print(" ".join(ids))
' "$HTTP"
}

if [ -z "$RULESETS" ]; then
  if ! RULESETS=$(server_rulesets 2>&1); then
    missing "rulesets" "$RULESETS (set RULESETS to choose them)"
    RULESETS=""
  fi
fi
echo "rulesets: ${RULESETS:-none}"

for kit in $KITS; do
  case $kit in
    python) command -v python3 >/dev/null || { missing "$kit" "python3 not found"; continue; } ;;
    javascript*) command -v node >/dev/null || { missing "$kit" "node not found"; continue; } ;;
    rust) [ -x "$RUST_KIT_BIN" ] || { missing "$kit" "$RUST_KIT_BIN not found (cargo build -p arbiter-kit, or set RUST_KIT_BIN)"; continue; } ;;
  esac
  name="kit-$kit-$TAG"
  for ruleset in $RULESETS; do
    # shellcheck disable=SC2046
    run "$kit $ruleset" $(kit_command "$kit" "$ruleset" "$name") \
      --ruleset "$ruleset" --name "$name" --password "$PASSWORD" --games 1 --house-bot "$HOUSE_BOT"
  done
  # Reconnection: the kit drops its own connection after 3 answers and resumes its seat.
  # shellcheck disable=SC2046
  run "$kit tae, reconnecting" $(kit_command "$kit" tae "$name") \
    --ruleset tae --name "$name" --password "$PASSWORD" --games 1 --house-bot "$HOUSE_BOT" --drop-after 3
done

echo "$((runs - failures)) of $runs games passed"
[ "$failures" -eq 0 ]
