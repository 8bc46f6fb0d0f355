// Package bench measures what each lock pattern costs on a real
// redis-server (or, as a demo, on embedded miniredis), beside references
// measured in the same run: the floor, a hand-written Redlock fan-out and,
// where a module links them, the Go lock libraries people use today.
//
// # What is measured
//
// A Subject is something that takes and gives back a lock: every correct
// pattern of the pattern registry, the floor (SET NX PX + the owner-checked Lua
// release, nothing else), the fan-out (a hand-written parallel Redlock), and
// the library adapters of the bench/refs module. Subjects come in two
// families: Single (one node; compared with the floor) and Quorum (N nodes;
// compared with the fan-out).
//
// A Cell is a workload: a family's node count, a number of clients and a
// key mode (a key per client, or one hot key). Run measures every subject
// of a family on every cell: each client loops acquire → release on its own
// Locker over go-redis clients shared by all of them, and retries at once
// when a one-shot subject finds the lock taken (so the floor on a hot key is
// the tight retry loop). A run warms up, then measures a window: cycles
// completed, attempts that found the lock taken, other errors, Redis round
// trips (a go-redis hook), and the acquire wait and whole-cycle latency in
// a log-bucketed Histogram.
//
// # Against drift
//
// The machine is shared and its speed drifts. Within a cell the subjects run
// one after another and the order rotates every repetition; a row reports
// the median rate over repetitions and the median of per-repetition ratios
// to its reference, each paired with a reference run moments apart, each
// with a distribution-free confidence interval (Interval: benchstat's
// method, 95% from 6 repetitions on). A goal is met when the interval of
// its measure lies at or above the threshold, missed when it lies wholly
// below, and within noise when it straddles it.
//
// # Output
//
// Rows and every repetition as CSV and JSON, plots as PNG and SVG
// (WritePlots), and a Markdown summary with the goals the benchmark reports
// on (Goals, WriteSummary). WriteReport writes them all.
//
//	t, _ := bench.Remote([]string{"127.0.0.1:6379"})
//	res, err := bench.Run(ctx, t, bench.Subjects(), bench.Config{Clients: []int{1, 8}})
//	_ = bench.WriteReport("reports/bench", res)
//
// Remote takes addresses (host:port) or redis:// and rediss:// URLs (ACL
// user, password, database, TLS; read by redis.ParseURL); Target.Addrs and
// every message show a URL without its password, also when it does not
// parse. Target.Timeout bounds every call to a node: after each run the
// sweep checks that its nodes still answer, and fails — naming the node —
// when one does not, or when no cycle completed while calls failed, so a
// server that hangs mid-run is an error, never a row of 0 cycles/s.
//
// The bench/benchcmd package is the `locksim bench` command; the
// bench/refs module adds the library subjects to it. Package bench/simbench
// measures the simulator itself (seeds per minute per pattern; `make
// bench-sim`).
package bench
