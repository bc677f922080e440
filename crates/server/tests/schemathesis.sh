#!/usr/bin/env bash
# schemathesis against a live `ply serve`: the server's own `GET /openapi.json` drives
# generated requests (examples, coverage, fuzzing and stateful phases); any failure of any
# check fails the script. Loopback only, SQLite in a temporary folder, a random port.
#
#   crates/server/tests/schemathesis.sh PLY_BINARY ST_BINARY
#
# The run is bounded by --max-examples per operation (SCHEMATHESIS_EXAMPLES, 20 by default)
# and by --max-time: at most two and a half minutes on the project's two-core machines.
set -euo pipefail
ply="$(realpath "${1:?the ply binary}")"
st="$(realpath "${2:?the schemathesis (st) binary}")"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
tmp="$(mktemp -d)"
server=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
# No per-client limit on creating games or checking packs: the run creates many of both.
"$ply" serve --addr 127.0.0.1:0 --packs "$root/rulesets" --db "$tmp/games.db" \
  --games-per-minute 0 --checks-per-minute 0 --log-level warn >"$tmp/out" 2>"$tmp/err" &
server=$!
addr=""
for _ in $(seq 1 100); do
  addr="$(sed -n 's|^listening on http://||p' "$tmp/out" | head -n 1)"
  [ -n "$addr" ] && break
  kill -0 "$server" 2>/dev/null || { echo "ply serve stopped:"; cat "$tmp/err"; exit 1; }
  sleep 0.1
done
[ -n "$addr" ] || { echo "ply serve printed no address"; cat "$tmp/err"; exit 1; }
echo "schemathesis against ply serve at $addr"
# The WebSocket route is described (its handshake headers, its 101) but not exercised: a valid
# request switches protocols, which schemathesis does not speak (the Rust tests drive it).
status=0
(cd "$tmp" && "$st" --config-file "$here/schemathesis.toml" run "http://$addr/openapi.json" \
  --exclude-path '/games/{id}/ws' \
  --max-examples "${SCHEMATHESIS_EXAMPLES:-20}" --max-time 150 --seed "${SCHEMATHESIS_SEED:-20261204}" \
  --generation-database none --no-color --workers 2) || status=$?
if ! kill -0 "$server" 2>/dev/null; then
  echo "ply serve died during the run:"; tail -n 50 "$tmp/err"; exit 1
fi
exit "$status"
