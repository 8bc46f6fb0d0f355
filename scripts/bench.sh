#!/usr/bin/env bash
# Benchmarks against real redis-servers.
#
#   scripts/bench.sh [flags...]   the sweep: starts 5 local redis-servers (free
#                                 loopback ports, no persistence), measures every
#                                 pattern beside the floor, the hand-written
#                                 Redlock fan-out, bsm/redislock and redsync, and
#                                 writes CSV, JSON, PNG/SVG plots and README.md
#                                 to $BENCH_OUT (default reports/bench). Extra
#                                 flags go to locksim-bench (see --help).
#   scripts/bench.sh micro        the go test -bench microbenchmarks (per-call
#                                 cost, benchstat format) into $BENCH_OUT/micro.txt
#
# Tunables: BENCH_DURATION (400ms), BENCH_WARMUP (100ms), BENCH_REPS (3);
# micro: BENCH_COUNT (6 runs of each, what benchstat needs for an interval),
# BENCH_BENCHTIME (2000x), BENCH_ROUNDS (30 interleaved rounds). The defaults keep the sweep to about 5 minutes on
# 2 cores; raise them on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out=$(realpath -m "${BENCH_OUT:-reports/bench}")

if ! command -v redis-server >/dev/null 2>&1; then
  echo "bench: redis-server not found on PATH (apt-get install redis-server)" >&2
  exit 2
fi
mkdir -p "$out"

if [[ "${1:-}" == "micro" ]]; then
  count=${BENCH_COUNT:-6}
  benchtime=${BENCH_BENCHTIME:-2000x}
  {
    go test -run '^$' -bench '^BenchmarkCycle$' -benchmem -count "$count" -benchtime "$benchtime" ./bench/
    (cd bench/refs && go test -run '^$' -bench '^BenchmarkCycle$' -benchmem -count "$count" -benchtime "$benchtime" .)
    # the same cycles interleaved in rounds of 200, with client CPU per cycle and ratios to the floor
    (cd bench/refs && go test -run '^$' -bench '^BenchmarkCycleInterleaved$' -benchtime "${BENCH_ROUNDS:-30}x" -v . | grep -v '^=== ')
  } 2>/dev/null | grep -v '^redis: ' | tee "$out/micro.txt" # go test merges go-redis's log lines into stdout
  echo "bench: microbenchmarks in $out/micro.txt (compare runs with benchstat)" >&2
  exit 0
fi

# Build, then run the binary itself (not under go run), so that SIGINT and
# SIGTERM reach it: it stops the redis-servers it started before it exits.
bindir=$(mktemp -d)
trap 'rm -rf "$bindir"' EXIT
(cd "$root/bench/refs" && go build -o "$bindir/locksim-bench" ./cmd/locksim-bench)
"$bindir/locksim-bench" --spawn 5 \
  --duration "${BENCH_DURATION:-400ms}" --warmup "${BENCH_WARMUP:-100ms}" --reps "${BENCH_REPS:-3}" \
  --out "$out" "$@" &
pid=$!
trap 'kill -TERM "$pid" 2>/dev/null' INT TERM
status=0
wait "$pid" || status=$?
while kill -0 "$pid" 2>/dev/null; do # a trapped signal ends the first wait early
  wait "$pid" || status=$?
done
exit "$status"
