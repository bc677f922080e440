#!/usr/bin/env bash
# `ply` built without its cargo features (`cargo build -p ply-cli --no-default-features`, as
# the README's first command builds it): `ply serve` and `ply bench --vs-native` are still
# listed and say how to get them; the rest is all there. `.ci/run` runs this last.
#
#   crates/cli/tests/without_features.sh PLY_BINARY
set -euo pipefail
ply="$(realpath "${1:?the ply binary}")"
cd "$(dirname "$0")/../../.."
fail() { echo "without_features: $*" >&2; exit 1; }
# expect CODE STDERR-PREFIX STDERR-PART ARGS...: the exit code, nothing on standard output.
expect() {
  local code="$1" prefix="$2" part="$3"; shift 3
  local out err status=0
  out="$("$ply" "$@" 2>/tmp/ply-without-features.err)" || status=$?
  err="$(cat /tmp/ply-without-features.err)"
  [ "$status" = "$code" ] || fail "ply $*: exit $status, not $code: $err"
  [ -z "$out" ] || fail "ply $*: printed $out"
  [[ "$err" == "$prefix"* ]] || fail "ply $*: said $err"
  [[ "$err" == *"$part"* ]] || fail "ply $*: did not say $part: $err"
}
expect 1 "error: this ply was built without the server" "cargo run --release -- serve" serve
expect 1 "error: this ply was built without the server" "cargo run --release -- serve" \
  serve --addr 127.0.0.1:0 --db x.db
expect 1 "error: --vs-native compares" "--features native" \
  bench rulesets/cats_rabbits.toml --playouts 2 --vs-native
"$ply" help | grep -q serve || fail "ply help does not list serve"
"$ply" replay examples/jungle_game.txt | grep -q "A wins" || fail "the replay did not end in A's win"
echo "ply without its features: serve and bench --vs-native say how to get them; a replay plays"
