package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/realmode"
)

type realFlags struct {
	pattern, scenario string
	runs, parallel    int
	seed              uint64
	asJSON            bool
	client            string
	// the agreement table
	table     string
	simSeeds  int
	libraries string
	libClient string
	merge     bool
	mergeFrom string
	stale     bool
	// the conformance check
	checkClient string
}

// realHelp is the help of locksim real.
const realHelp = `real runs a scenario for real on this machine: redis-server processes on
free loopback ports, each client its own OS process running the
simulator's workload, and the faults done for real — a pause is SIGSTOP
and SIGCONT of the client, a slow step a real sleep, a node crash a
SIGKILL of redis-server and a restart on the same port, a node clock jump
every key's expiry shifted inside redis-server, a failover the promotion
(REPLICAOF NO ONE) of a real replica whose replication link a proxy held
for the scenario's replication delay, the old primary killed and the
clients' proxies re-pointed to the new one. The same store, oracles
and porcupine check as the simulator judge the history, kept in one true
time (the coordinator's monotonic clock). Every process started is
stopped when the run ends, fails or is interrupted.

Partitions and slow links go through a TCP proxy the coordinator puts on
every client–node link; a client's clock jump or drift goes through its
Clock (the lock's and the workload's time). A scenario with a fault real
mode cannot perform (message loss, a node's drift, a client's
clock fault for a library, which keeps its own time) is refused, naming
it. Each client builds its lock with the scenario's lock settings, as the
simulator does: the TTL and every option of its pattern line
(wait-replicas waits for the real replica a scenario with replicas gives
each node); a library subject, which takes the TTL and the first retry
backoff only, is refused any pattern-line option, by name.
--runs N makes N runs (seeds --seed, --seed+1, …), each with fresh
processes; the rate of runs that broke a claim is printed with its 95%
interval.

--table FILE runs the agreement table instead: for every pattern (or
those --pattern lists, comma-separated) × built-in scenario (or those
--scenario lists) that real mode can run,
--runs real runs beside --sim-seeds simulated seeds, with the runs that
broke a claim of each kind (safety, liveness, promptness) on each side
and the rate over any claim with its 95% interval; a cell agrees when,
kind by kind, both sides broke it or neither did. --libraries adds rows for library subjects of --lib-client.
The same cells go, machine-readable, into agreement.json beside FILE
(format locksim-agreement/1), which locksim report --real reads.
--merge fills a table cell by cell: it runs only the cells selected and
replaces just those in the agreement.json beside FILE (which must exist),
keeping the others, then writes FILE again from the merged cells;
--merge-from F merges the cells of another agreement.json F instead of
running any. Every cell records the commit and build that made it, its
claim set and a fingerprint of what decides its verdicts (the oracles'
version, the subject's claims and nodes, the scenario's text, the lock
code's Go sources and scripts); locksim report --real shows a cell whose
fingerprint this build does not give as stale, greyed with the reason,
never as agreement. --merge --stale reruns only the stale cells of the
selection (and those the file lacks). A merged table names every run its cells came from, and
each row the run that made it. Both files are written again as each
cell is made (the cells made so far merged into the table as it was), so
a table that fails, is interrupted or is killed keeps every cell it
finished, and --merge --stale with the same selection runs the rest.

--client names the client program (default: this binary). A binary built
in bench/refs (cmd/locksim-real-client) adds the lock libraries redsync,
bsm/redislock and rueidislock as patterns.

Every client runs in a process group of its own, killed whole, with a
parent-death signal; a client whose command cannot start or exits early
is reported with the end of its output. SIGINT or SIGTERM ends real
within 5 seconds whatever the clients do (a second signal at once),
every process started stopped, exit 130.

Exit status: 0 when no run broke a claim, 1 when one did or a client
process crashed, panicked, hung or exited early (named in the output, with its stderr), 2 on bad usage
(including a refused fault, and lock settings the pattern refuses), 3 when the environment failed (no
redis-server on PATH, a server that never became ready or died, a crashed node that could not
restart — its port taken, the server exiting, not ready in time — or another fault that did not
happen, named with its node and cause).`

func newRealCmd() *cobra.Command {
	var f realFlags
	cmd := &cobra.Command{
		Use:   "real --pattern P --scenario S|FILE [--runs N]",
		Short: "Run one pattern under one scenario on real redis-servers, with real faults, and judge it",
		Long:  realHelp + langClientsHelp(),
		Example: `  locksim real --pattern basic --scenario gc-pause
  locksim real --pattern fenced --scenario gc-pause --runs 10 --json
  locksim real --pattern redlock --scenario node-restart-without-persistence --runs 20 --parallel 2
  locksim real --table reports/real/README.md --runs 5 --sim-seeds 20
  locksim real --table reports/real/README.md --merge --scenario failover-async-replication --runs 5
  locksim real --table reports/real/README.md --merge --stale --runs 5 --sim-seeds 20
  locksim real --pattern node-redlock --scenario gc-pause --runs 5
  locksim real --check-client clients/node/locksim-client.js --pattern node-redlock,node-redis-semaphore`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runReal(cmd, f) },
	}
	f.bind(cmd.Flags())
	return cmd
}

// bind defines the flags of the command into f.
func (f *realFlags) bind(fl *pflag.FlagSet) {
	fl.StringVar(&f.pattern, "pattern", "", "pattern name (see locksim list), or a pattern of --client")
	fl.StringVar(&f.scenario, "scenario", "", "built-in scenario name, or a scenario file")
	fl.IntVar(&f.runs, "runs", 1, "number of runs, each with fresh processes")
	fl.IntVar(&f.parallel, "parallel", 1, "runs at once")
	fl.Uint64Var(&f.seed, "seed", 1, "seed of the first run (workload jitter, lock tokens)")
	fl.BoolVar(&f.asJSON, "json", false, "print the results as JSON")
	fl.StringVar(&f.client, "client", "", "client program (default: this binary's hidden real-client command)")
	fl.StringVar(&f.table, "table", "", "run the agreement table (every pattern × built-in scenario, or those given) and write it as markdown to this file")
	fl.IntVar(&f.simSeeds, "sim-seeds", 20, "with --table: simulated seeds per cell")
	fl.StringVar(&f.libraries, "libraries", "", "with --table: comma-separated library subjects of --lib-client, for rows of their own")
	fl.StringVar(&f.libClient, "lib-client", "", "with --table: the client program that knows --libraries (bench/refs cmd/locksim-real-client)")
	fl.BoolVar(&f.merge, "merge", false, "with --table: run only the cells selected and merge them into the agreement.json beside FILE, keeping its other cells")
	fl.BoolVar(&f.stale, "stale", false, "with --table --merge: run only the cells of the selection that are stale (or missing) in the agreement.json beside FILE")
	fl.StringVar(&f.checkClient, "check-client", "", "run the conformance check of this client program for --pattern's subjects (docs/real-protocol.md)")
	fl.StringVar(&f.mergeFrom, "merge-from", "", "with --table: run nothing; merge the cells of this agreement.json into the one beside FILE")
}

// newRealClientCmd is the client process real mode starts: not for users.
func newRealClientCmd() *cobra.Command {
	return &cobra.Command{
		Use:    "real-client",
		Short:  "one client process of locksim real (started by it)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			os.Exit(realmode.ClientMain())
			return nil
		},
	}
}

func runReal(cmd *cobra.Command, f realFlags) error {
	if f.checkClient != "" {
		if f.table != "" || f.scenario != "" {
			return usagef("--check-client runs its own scenario: give it without --table or --scenario")
		}
		return runCheckClient(cmd.Context(), cmd.OutOrStdout(), f)
	}
	if f.table != "" {
		return runRealTable(cmd, f)
	}
	if err := tableOnly(cmd); err != nil {
		return err
	}
	cfg, err := resolveReal(f)
	if err != nil {
		return err
	}
	ctx, stop := interruptible(cmd.Context()) // a second signal ends locksim at once
	defer stop()
	res, err := realmode.RunMany(ctx, cfg, f.runs, f.parallel)
	if err != nil {
		return realError(err)
	}
	if err := printReal(cmd.OutOrStdout(), res, f.asJSON); err != nil {
		return err
	}
	return realVerdict(res)
}

// resolveReal checks the flags and builds the run's configuration.
func resolveReal(f realFlags) (realmode.Config, error) {
	switch {
	case f.pattern == "":
		return realmode.Config{}, usagef("--pattern is required (see locksim list)")
	case f.scenario == "":
		return realmode.Config{}, usagef("--scenario is required: a built-in name (see locksim list) or a file")
	case f.runs < 1:
		return realmode.Config{}, usagef("--runs %d: want at least 1", f.runs)
	case f.parallel < 1:
		return realmode.Config{}, usagef("--parallel %d: want at least 1", f.parallel)
	}
	client, err := clientArgv(f.client)
	if err != nil {
		return realmode.Config{}, err
	}
	if lc, ok := findLangClient(f.pattern); ok && f.client == "" {
		if client, err = lc.argv(); err != nil {
			return realmode.Config{}, err
		}
		f.client = client[0]
	}
	p, err := realPattern(f, client)
	if err != nil {
		return realmode.Config{}, err
	}
	_, inCatalog := pattern.Lookup(f.pattern)
	isFile, err := scenarioFile("--scenario", f.scenario)
	if err != nil {
		return realmode.Config{}, err
	}
	sc, err := loadScenario(f.scenario, isFile, p.Nodes)
	if err != nil {
		return realmode.Config{}, err
	}
	if err := realmode.Supported(sc); err != nil {
		return realmode.Config{}, usagef("--scenario %s: %w", f.scenario, err)
	}
	if err := refusedSettings("--scenario "+f.scenario, p, sc); err != nil {
		return realmode.Config{}, err
	}
	return realmode.Config{Pattern: p, Scenario: sc, Seed: f.seed, Client: client, Library: inCatalog != nil}, nil
}

// clientArgv is the client program's command line: --client's program,
// or this binary's real-client.
func clientArgv(path string) ([]string, error) {
	if path != "" {
		return programArgv("--client", path)
	}
	self, err := os.Executable()
	if err != nil {
		return nil, runtimef("real: find this binary to start clients: %w", err)
	}
	return []string{self, "real-client"}, nil
}

// realPattern finds the pattern in the catalog or, with --client, asks
// the client program.
func realPattern(f realFlags, client []string) (pattern.Pattern, error) {
	p, err := pattern.Lookup(f.pattern)
	if err == nil || f.client == "" {
		if err != nil {
			return p, usagef("--pattern: %v", err)
		}
		return p, nil
	}
	p, err = realmode.Describe(client, nil, f.pattern)
	if err != nil {
		return p, usagef("--pattern: %v", err)
	}
	return p, nil
}

// realError classifies a run that could not be made.
func realError(err error) error {
	switch {
	case errors.Is(err, realmode.ErrUnsupported), isRefused(err):
		return usageError{err}
	case errors.Is(err, context.Canceled):
		return interruptError{fmt.Errorf("real: interrupted; every process started was stopped: %w", err)}
	}
	return runtimef("real: %w", err)
}

func printReal(w io.Writer, res []*realmode.Result, asJSON bool) error {
	t := realmode.Count(res)
	p, lo, hi := t.Rate()
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Format string             `json:"format"`
			Runs   []*realmode.Result `json:"runs"`
			Tally  realmode.Tally     `json:"tally"`
			Rate   [3]float64         `json:"rate"` // share, 95% Wilson low, high
		}{formatReal, res, t, [3]float64{p, lo, hi}})
	}
	for _, r := range res {
		fmt.Fprintln(w, r.Summary())
		if fs := r.FaultsSummary(); fs != "" {
			fmt.Fprintln(w, "  "+fs)
		}
		fmt.Fprintln(w, "  "+r.LossSummary())
		if ss := r.StopsSummary(r.TTL); ss != "" {
			fmt.Fprintln(w, "  "+ss)
		}
		for _, nj := range r.NotJudged {
			fmt.Fprintln(w, "  NOT JUDGED "+nj)
		}
		for _, v := range r.Violations {
			fmt.Fprintf(w, "  t=%.6fs %s %v: %s\n", float64(v.At)/1e9, v.Kind, v.Clients, v.Detail)
		}
	}
	fmt.Fprintf(w, "violated in %d of %d runs (%.0f%%, 95%% interval %.0f–%.0f%%); client failures in %d; a fault did not fire in %d; a claim not judged in %d; the machine stopped a client past TTL/%d in %d\n",
		t.Violated, t.Runs-t.Failed, 100*p, 100*lo, 100*hi, t.Failed, t.Unfired, t.NotJudged, realmode.StopFraction, t.Descheduled)
	if len(res) == 1 {
		fmt.Fprintln(w, "one run only: its verdict is one seed's")
	}
	return nil
}

func realVerdict(res []*realmode.Result) error {
	t := realmode.Count(res)
	switch {
	case t.Failed > 0:
		for _, r := range res {
			if err := r.Err(); err != nil {
				return violationError{fmt.Sprintf("real: seed %d: %v", r.Seed, err)}
			}
		}
	case t.Violated > 0:
		return violationError{fmt.Sprintf("real: %s broke a claim under %s in %d of %d runs", res[0].Pattern, res[0].Scenario, t.Violated, t.Runs)}
	}
	return nil
}

// tableOnly refuses, without --table, a flag only the agreement table
// reads: it would be silently ignored.
func tableOnly(cmd *cobra.Command) error {
	for _, name := range []string{"sim-seeds", "libraries", "lib-client", "merge", "merge-from", "stale"} {
		if cmd.Flags().Changed(name) {
			return usagef("--%s is read only with --table (the agreement table)", name)
		}
	}
	return nil
}

// programArgv is the command line of the program flag names: a path
// (relative to the working directory, never a name looked up on PATH) to
// an executable file.
func programArgv(flag, path string) ([]string, error) {
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return nil, usagef("%s: %v", flag, err)
	case st.IsDir():
		return nil, usagef("%s %s: a directory, not a program", flag, path)
	case st.Mode().Perm()&0o111 == 0:
		return nil, usagef("%s %s: not executable", flag, path)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, usagef("%s %s: %v", flag, path, err)
	}
	return []string{abs}, nil
}
