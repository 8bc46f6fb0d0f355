// Package benchcmd is the `bench` command: flags, target selection,
// progress, output. Both the locksim CLI and the bench/refs module (which
// links the library references) build it, so they behave alike.
package benchcmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/locksim/locksim/bench"
	"github.com/locksim/locksim/internal/safefile"
	"github.com/locksim/locksim/redisserver"
	"github.com/locksim/locksim/term"
)

// UsageError marks bad flags or values (the CLI exits 2 on it).
type UsageError struct{ Err error }

func (e UsageError) Error() string { return e.Err.Error() }

// Unwrap returns the cause.
func (e UsageError) Unwrap() error { return e.Err }

func usagef(format string, a ...any) error { return UsageError{fmt.Errorf(format, a...)} }

// flags are the command's options.
type flags struct {
	redis, clients, keys, nodes, subjects string
	families                              string
	spawn, reps                           int
	duration, warmup, ttl, timeout        time.Duration
	out, cpuProfile, blockProfile         string
	asJSON, quiet                         bool
	replot                                string
	nodesSet                              bool // --nodes given, not its default
}

// New returns the bench command measuring bench.Subjects(extra...).
// libNote, if not empty, is printed to stderr to say where the library
// references are when extra is empty.
// benchHelp is the help of the bench command.
const benchHelp = `bench runs every correct pattern × clients × {a key per client, one hot key},
and Redlock over 1, 3 and 5 nodes (those of them the servers allow), beside references measured in the same run:
the floor (a hand-written SET NX PX + Lua release), a hand-written parallel
Redlock fan-out and, where linked, bsm/redislock and go-redsync/redsync. The
subjects of a cell run interleaved, repeated, and the medians are reported,
with every row's ratio to the floor.

By default it runs on embedded miniredis: the demo path, whose figures show the
harness, not Redis. Give --redis ADDR[,ADDR...] (5 addresses for Redlock over
5 nodes; each host:port or a redis:// or rediss:// URL with an ACL user and
password, never printed) or --spawn 5 (starts local redis-servers, waits
until each answers, and stops them on every exit, SIGINT and SIGTERM
included; killed outright, bench takes them with it) for real figures.

Exit status: 0 done, 2 bad usage (a flag, an unknown subject, a URL that
does not parse), 3 a server that cannot be reached or stops answering
(every call is bounded by --timeout; the message names its address). An
interrupt (SIGINT, SIGTERM) stops the sweep and every server it started
before bench exits.

The table (or --json) goes to stdout, the progress bar to stderr; --out DIR
writes CSV, JSON, PNG and SVG plots and a Markdown summary (README.md),
replacing those files of an earlier run and nothing else. An --out that
cannot be written (a file, a missing parent, no permission), that holds a
README.md bench did not write, or a directory under one of those names is
refused (exit 2) before any server starts. --replot DIR measures nothing: it
redraws DIR's plots from its results.json (exit 2 if that file is missing or
not a bench result).`

func New(extra []bench.Subject, libNote string) *cobra.Command {
	var f flags
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Measure each pattern's throughput and latency beside the floor and the Go lock libraries",
		Long:  benchHelp,
		Example: `  locksim bench --duration 200ms --reps 1            # quick demo on miniredis
  locksim bench --spawn 5 --out reports/bench          # real redis-servers, full report
  locksim bench --redis 127.0.0.1:6379 --nodes 1 --subjects basic,fenced --clients 1,8
  locksim bench --replot reports/bench                 # redraw a sweep's plots from its results.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if f.replot != "" {
				return replot(f.replot, cmd.OutOrStdout())
			}
			if len(extra) == 0 && libNote != "" && !f.quiet {
				fmt.Fprintln(cmd.ErrOrStderr(), libNote)
			}
			f.nodesSet = cmd.Flags().Changed("nodes")
			ctx, stop := signal.NotifyContext(ctxOr(cmd.Context()), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return run(ctx, f, extra, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f.bind(cmd.Flags())
	return cmd
}

// bind defines the flags of the command into f.
func (f *flags) bind(fl *pflag.FlagSet) {
	fl.StringVar(&f.redis, "redis", "", "comma-separated redis-servers: host:port, or redis://[user:password@]host:port[/db] (rediss:// for TLS); default: embedded miniredis, the demo path")
	fl.IntVar(&f.spawn, "spawn", 0, "start this many local redis-servers (free loopback ports, no persistence) and measure them")
	fl.StringVar(&f.clients, "clients", "1,8,32,64", "comma-separated client counts")
	fl.StringVar(&f.keys, "keys", "distinct,hot", "key modes: distinct (a key per client), hot (one key)")
	fl.StringVar(&f.nodes, "nodes", "1,3,5", "Redlock node counts (odd, at most the number of servers; by default those of 1, 3 and 5 that the --redis or --spawn servers allow)")
	fl.StringVar(&f.families, "families", "single,quorum", "families to run: single (one node, vs the floor), quorum (Redlock, vs the fan-out)")
	fl.StringVar(&f.subjects, "subjects", "", "comma-separated subjects to keep (default all; the floor and fan-out always run)")
	fl.DurationVar(&f.duration, "duration", time.Second, "measured window of each run")
	fl.DurationVar(&f.warmup, "warmup", 200*time.Millisecond, "unmeasured warm-up before each run")
	fl.DurationVar(&f.ttl, "ttl", 10*time.Second, "lock TTL (at least 100ms)")
	fl.DurationVar(&f.timeout, "timeout", bench.DefaultTimeout, "bound on every call to a server: one that does not answer within it fails the run (exit 3)")
	fl.IntVar(&f.reps, "reps", 3, "repetitions of every run (medians are reported)")
	fl.StringVar(&f.out, "out", "", "directory for CSV, JSON, plots and README.md (e.g. reports/bench)")
	fl.StringVar(&f.cpuProfile, "cpuprofile", "", "write a CPU profile of the sweep to this file")
	fl.StringVar(&f.blockProfile, "blockprofile", "", "write a profile of where goroutines wait (every blocking event) to this file")
	fl.BoolVar(&f.asJSON, "json", false, "print the result as JSON instead of a table")
	fl.BoolVar(&f.quiet, "quiet", false, "no progress bar")
	fl.StringVar(&f.replot, "replot", "", "measure nothing: redraw the plots of DIR from its results.json (a sweep drawn again by this build's plotting)")
}

// ctxOr is ctx, or the background context when cobra gives none.
func ctxOr(ctx context.Context) context.Context {
	if ctx == nil {
		return context.Background()
	}
	return ctx
}

// run checks every flag, starts (or reaches) the target, measures, writes.
// Whatever happens after the target started, it is stopped before run
// returns: ctx ends on SIGINT or SIGTERM, the sweep stops, and the
// deferred stop runs.
func run(ctx context.Context, f flags, extra []bench.Subject, stdout, stderr io.Writer) error {
	subjects := bench.Subjects(extra...)
	cfg, err := f.config(subjects)
	if err != nil {
		return err
	}
	if err := f.checkPaths(cfg.Keys); err != nil {
		return err
	}
	switch {
	case f.quiet:
	case term.IsTerminal(stderr):
		cfg.Progress = stderr
	default:
		cfg.OnProgress = progressLines(stderr)
	}
	t, stop, err := f.target(slicesMax(cfg.QuorumNodes))
	if err != nil {
		return err
	}
	defer stop()
	if err := cfg.Validate(len(t.Addrs)); err != nil {
		return UsageError{err}
	}
	if err := t.Ping(ctx); err != nil {
		return interrupted(ctx, err)
	}
	stopProfiles, err := f.startProfiles()
	if err != nil {
		return err
	}
	res, err := bench.Run(ctx, t, subjects, cfg)
	if perr := stopProfiles(); err == nil {
		err = perr
	}
	if err != nil {
		return interrupted(ctx, err)
	}
	return f.write(res, stdout, stderr)
}

// ErrInterrupted marks a sweep stopped by SIGINT or SIGTERM.
var ErrInterrupted = errors.New("bench: interrupted")

// interrupted says so when err is the end of ctx by a signal.
func interrupted(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%w (any redis-server it started is stopped): %w", ErrInterrupted, err)
	}
	return err
}

// progressLines is the progress off a terminal: a plain line every 10s
// and at the end, no carriage returns.
func progressLines(w io.Writer) func(done, total int) {
	start := time.Now()
	last := start
	return func(done, total int) {
		if now := time.Now(); done == total || now.Sub(last) >= 10*time.Second {
			last = now
			fmt.Fprintf(w, "bench: %d/%d runs in %v\n", done, total, now.Sub(start).Round(time.Second))
		}
	}
}

// checkPaths refuses, before anything runs, an output path that is
// another output or cannot be written, and an --out that holds, under a
// name the report writes over keys, a directory or a README.md of its own
// (bench.CheckReportDir).
func (f flags) checkPaths(keys []bench.KeyMode) error {
	var paths safefile.Paths
	if f.out != "" {
		paths.OutputDir("--out", f.out)
	}
	paths.Output("--cpuprofile", f.cpuProfile)
	paths.Output("--blockprofile", f.blockProfile)
	if err := paths.Check(); err != nil {
		return UsageError{err}
	}
	if f.out != "" {
		if err := bench.CheckReportDir(f.out, keys); err != nil {
			return UsageError{fmt.Errorf("--out %s: %w", f.out, err)}
		}
	}
	return nil
}

// startProfiles starts the CPU and block profiles the flags ask for; the
// returned function stops them and writes the files.
func (f flags) startProfiles() (func() error, error) {
	var stops []func() error
	stop := func() error {
		var errs []error
		for _, s := range stops {
			errs = append(errs, s())
		}
		return errors.Join(errs...)
	}
	if f.cpuProfile != "" {
		pf, err := safefile.Create(f.cpuProfile)
		if err != nil {
			return nil, err
		}
		if err := pprof.StartCPUProfile(pf); err != nil {
			pf.Abort()
			return nil, err
		}
		stops = append(stops, func() error { pprof.StopCPUProfile(); return pf.Commit() })
	}
	if f.blockProfile != "" {
		runtime.SetBlockProfileRate(1)
		stops = append(stops, func() error {
			runtime.SetBlockProfileRate(0)
			return writeFile(f.blockProfile, func(w io.Writer) error { return pprof.Lookup("block").WriteTo(w, 0) })
		})
	}
	return stop, nil
}

// writeFile writes path atomically: a failed write leaves the old file.
func writeFile(path string, write func(io.Writer) error) error {
	return safefile.Write(path, write)
}

func (f flags) write(res *bench.Result, stdout, stderr io.Writer) error {
	if f.out != "" {
		if err := bench.WriteReport(f.out, res); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "bench: report written to %s\n", f.out)
	}
	if f.asJSON {
		return bench.WriteJSON(stdout, res)
	}
	if res.Demo {
		fmt.Fprintln(stdout, "# demo path: embedded miniredis; give --redis or --spawn for real figures")
	}
	return bench.WriteTable(stdout, res)
}

// target picks the target the flags name; stop releases it.
func (f flags) target(quorum int) (*bench.Target, func(), error) {
	switch {
	case f.redis != "" && f.spawn > 0:
		return nil, nil, usagef("--redis and --spawn exclude each other")
	case f.redis != "":
		t, err := bench.Remote(strings.Split(f.redis, ","))
		if err != nil {
			return nil, nil, UsageError{err}
		}
		t.Timeout = f.timeout
		return t, func() {}, nil
	case f.spawn > 0:
		ss, err := redisserver.StartMany(context.Background(), f.spawn)
		if err != nil {
			return nil, nil, err
		}
		stop := func() { redisserver.StopAll(ss) }
		t, err := bench.Remote(redisserver.Addrs(ss))
		if err != nil {
			stop()
			return nil, nil, err
		}
		t.Timeout = f.timeout
		return t, stop, nil
	default:
		t, err := bench.Embedded(max(quorum, 1))
		if err != nil {
			return nil, nil, err
		}
		t.Timeout = f.timeout
		return t, t.Close, nil
	}
}

func (f flags) config(subjects []bench.Subject) (bench.Config, error) {
	var cfg bench.Config
	var err error
	if err := f.checkValues(); err != nil {
		return cfg, err
	}
	if cfg.Clients, err = ints("--clients", f.clients); err != nil {
		return cfg, err
	}
	if cfg.QuorumNodes, err = ints("--nodes", f.nodes); err != nil {
		return cfg, err
	}
	if cfg.QuorumNodes, err = f.fitNodes(cfg.QuorumNodes); err != nil {
		return cfg, err
	}
	for _, k := range splitList(f.keys) {
		cfg.Keys = append(cfg.Keys, bench.KeyMode(k))
	}
	if cfg.Subjects, err = subjectNames(f.subjects, subjects); err != nil {
		return cfg, err
	}
	for _, fam := range splitList(f.families) {
		cfg.Families = append(cfg.Families, bench.Family(fam))
	}
	cfg.Timing = bench.Timing{Warmup: f.warmup, Duration: f.duration, TTL: f.ttl}
	if f.reps < 1 {
		return cfg, usagef("--reps (%d) must be at least 1", f.reps)
	}
	cfg.Reps = f.reps
	if f.duration <= 0 {
		return cfg, usagef("--duration (%v) must be positive", f.duration)
	}
	return cfg, nil
}

// servers is how many servers the flags name: --spawn's count, --redis's
// addresses, or 0 for the embedded target (made as large as --nodes asks).
func (f flags) servers() int {
	switch {
	case f.spawn > 0:
		return f.spawn
	case f.redis != "":
		return len(strings.Split(f.redis, ","))
	}
	return 0
}

// fitNodes keeps, of the default node counts, those the servers allow
// (--spawn 1 runs Redlock over one node), and refuses a --nodes given
// that asks for more servers than there are, before any starts.
func (f flags) fitNodes(counts []int) ([]int, error) {
	n := f.servers()
	if n == 0 {
		return counts, nil
	}
	var fit []int
	for _, c := range counts {
		if c <= n {
			fit = append(fit, c)
		} else if f.nodesSet {
			return nil, usagef("--nodes %d needs %d servers; there are %d (--redis or --spawn)", c, c, n)
		}
	}
	return fit, nil
}

// checkValues refuses values bench would otherwise replace or misread.
func (f flags) checkValues() error {
	switch {
	case f.ttl <= 0:
		return usagef("--ttl (%v) must be positive (at least 100ms)", f.ttl)
	case f.timeout <= 0:
		return usagef("--timeout (%v) must be positive", f.timeout)
	case f.spawn < 0:
		return usagef("--spawn (%d) must not be negative", f.spawn)
	case f.warmup < 0:
		return usagef("--warmup (%v) must not be negative", f.warmup)
	}
	return nil
}

// subjectNames reads --subjects: every name must be one of subjects.
func subjectNames(arg string, subjects []bench.Subject) ([]string, error) {
	names := splitList(arg)
	var known []string
	for _, s := range subjects {
		if !slices.Contains(known, s.Name) {
			known = append(known, s.Name)
		}
	}
	for _, n := range names {
		if !slices.Contains(known, n) {
			return nil, usagef("--subjects: unknown subject %q (known: %s)", n, strings.Join(known, ", "))
		}
	}
	return names, nil
}

func splitList(s string) []string {
	var out []string
	for p := range strings.SplitSeq(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func ints(name, s string) ([]int, error) {
	var out []int
	for _, p := range splitList(s) {
		n, err := strconv.Atoi(p)
		if err != nil {
			return nil, usagef("%s: %q is not a number", name, p)
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil, usagef("%s: empty list", name)
	}
	return out, nil
}

func slicesMax(xs []int) int {
	m := 0
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

// IsUsage reports whether err is a usage error.
func IsUsage(err error) bool {
	var u UsageError
	return errors.As(err, &u)
}

// Exit statuses of the bench command, as locksim's.
const (
	ExitOK        = 0
	ExitUsage     = 2   // a bad flag or value
	ExitRuntime   = 3   // a server unreachable or that stopped answering, an I/O error
	ExitInterrupt = 130 // SIGINT or SIGTERM; the servers it started are stopped
)

// ExitCode maps the command's error to its exit status.
func ExitCode(err error) int {
	switch {
	case err == nil:
		return ExitOK
	case IsUsage(err):
		return ExitUsage
	case errors.Is(err, ErrInterrupted):
		return ExitInterrupt
	}
	return ExitRuntime
}

// replot redraws the plots of dir from its results.json.
func replot(dir string, stdout io.Writer) error {
	path := filepath.Join(dir, bench.FileJSON)
	fh, err := os.Open(path)
	if err != nil {
		return usagef("--replot %s: %w", dir, err)
	}
	defer fh.Close()
	res, err := bench.ReadJSON(fh)
	if err != nil {
		return usagef("--replot %s: %w", path, err)
	}
	if err := bench.WritePlots(dir, res); err != nil {
		return fmt.Errorf("--replot %s: %w", dir, err)
	}
	fmt.Fprintf(stdout, "bench: redrew the plots of %s from %s (%d rows, sweep of %s)\n", dir, bench.FileJSON, len(res.Rows), res.Started.UTC().Format("2006-01-02 15:04 UTC"))
	return nil
}
