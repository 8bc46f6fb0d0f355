package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/locksim/locksim/internal/advise"
	"github.com/locksim/locksim/internal/report"
)

// defaultEvidence is where advise looks for evidence when --evidence is
// not given: the committed report's, from the repository's root.
const defaultEvidence = "reports/" + report.FileEvidence

// stdinIsTerminal reports whether advise may ask for what its flags left
// out; tests replace it.
var stdinIsTerminal = func(cmd *cobra.Command) bool {
	f, ok := cmd.InOrStdin().(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// adviseHelp is the help of locksim advise.
const adviseHelp = `advise answers one situation from the simulator's measurements: the
pattern(s) to use and the settings that make it so, the residual risk of
each (the rate of the one finding that counts there, under its worst
scenario, with its 95% Wilson interval and the replay of its lowest failing
seed), what it does not protect against, what was not judged, and the
runner-up and why it lost. When no pattern is safe it says so, names the
least bad and the changes (a store that checks tokens, appendfsync always)
under which one is.

The situation, one flag per question:
  --double-run harmless|store-checks-tokens|harmful
                  what it costs when the work runs twice at once (harmful:
                  the store cannot check fencing tokens)
  --topology single|single-fsync-always|replicas|independent:N
                  one node (appendfsync everysec), one with appendfsync
                  always, a primary with asynchronously replicated failover
                  (Sentinel), or N independent nodes (odd, at least 3)
  --pauses none|below-ttl|above-ttl      client stop-the-world pauses
  --work bounded|unbounded               the work's duration against the TTL
  --clocks stable|may-jump               clients' and nodes' clocks
  --access exclusive|read-mostly|slots:N|fifo

What counts: with a harmless double run, progress (the lock staying free
past 5 TTLs); with a store that checks tokens, lost updates; otherwise the
double run itself (with slots, one holder too many). Each candidate is
judged per scenario, never pooled, and ranked by its worst one.

On a terminal advise asks for the questions its flags left out; otherwise
a missing flag is bad usage (exit 2, naming it). The evidence is the file
'locksim report' writes beside the report (`

func newAdviseCmd() *cobra.Command {
	var evidence string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "advise --double-run X --topology X --pauses X --work X --clocks X --access X [--json]",
		Short: "Say which lock pattern to use in a situation, with its settings, residual risk and evidence",
		Long: adviseHelp + report.FileEvidence + `,
with the commit and seeds it came from); --evidence names one, the default
is ` + defaultEvidence + ` (run from the repository's root). No copy is
built into the binary: the evidence of a report describes the code of the
commit it was made from, and a binary built later would answer from
measurements of other code. A --evidence that does not exist or is not
evidence is bad usage (exit 2); a missing default is exit 3.

--json prints the answer as locksim-advise/1 (docs/json.md). The same
situation and evidence give the same bytes.`,
		Example: `  locksim advise --double-run harmless --topology single --pauses none --work bounded --clocks stable --access exclusive
  locksim advise --double-run store-checks-tokens --topology single-fsync-always --pauses above-ttl --work bounded --clocks stable --access exclusive --json
  locksim advise --double-run harmful --topology independent:5 --pauses none --work bounded --clocks stable --access exclusive
  locksim advise --evidence /tmp/report/evidence.json --access read-mostly --double-run harmful --topology single --pauses none --work bounded --clocks stable`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runAdvise(cmd, evidence, cmd.Flags().Changed("evidence"), asJSON)
		},
	}
	fl := cmd.Flags()
	for _, d := range advise.Dimensions() {
		fl.String(d.Flag, "", d.Question+" ("+strings.Join(d.Values, "|")+")")
	}
	fl.StringVar(&evidence, "evidence", defaultEvidence, "the evidence file locksim report wrote beside the report")
	fl.BoolVar(&asJSON, "json", false, "print the answer as JSON (locksim-advise/1)")
	return cmd
}

func runAdvise(cmd *cobra.Command, file string, given, asJSON bool) error {
	var s advise.Situation
	for _, d := range advise.Dimensions() {
		if v, _ := cmd.Flags().GetString(d.Flag); v != "" {
			if err := s.Set(d.Flag, v); err != nil {
				return usageError{err}
			}
		}
	}
	if missing := s.Missing(); len(missing) > 0 {
		if !stdinIsTerminal(cmd) {
			return usagef("--%s is missing (and stdin is not a terminal to ask): give every one of --%s", missing[0], strings.Join(flagNames(), ", --"))
		}
		if err := ask(cmd.InOrStdin(), cmd.ErrOrStderr(), &s, missing); err != nil {
			return err
		}
	}
	e, err := loadEvidence(file, given)
	if err != nil {
		return err
	}
	a, err := advise.Advise(s, e)
	if err != nil {
		return usageError{err}
	}
	if asJSON {
		return writeJSON(cmd.OutOrStdout(), a)
	}
	return a.WriteText(cmd.OutOrStdout())
}

func flagNames() []string {
	var out []string
	for _, d := range advise.Dimensions() {
		out = append(out, d.Flag)
	}
	return out
}

// ask asks on w for each missing dimension and reads the answer from r,
// asking again after a value it refuses; the end of input is bad usage.
func ask(r io.Reader, w io.Writer, s *advise.Situation, missing []string) error {
	in := bufio.NewScanner(r)
	for _, d := range advise.Dimensions() {
		if !contains(missing, d.Flag) {
			continue
		}
		for {
			fmt.Fprintf(w, "%s [%s] (--%s): ", d.Question, strings.Join(d.Values, "|"), d.Flag)
			if !in.Scan() {
				return usagef("--%s is missing: no answer before the end of input", d.Flag)
			}
			err := s.Set(d.Flag, in.Text())
			if err == nil {
				break
			}
			fmt.Fprintln(w, err)
		}
	}
	return nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// loadEvidence reads the evidence file: a given file that is missing or
// not evidence is bad usage; a missing default, an environment without
// a report.
func loadEvidence(file string, given bool) (*advise.Evidence, error) {
	f, err := os.Open(file)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !given:
		return nil, runtimef("no evidence at %s: run 'locksim report' (it writes %s beside the report) from the repository's root, or give --evidence FILE", file, report.FileEvidence)
	case err != nil && !given:
		return nil, runtimef("evidence %s: %v", file, err)
	case err != nil:
		return nil, usagef("--evidence %s: %v", file, err)
	}
	defer f.Close()
	e, err := advise.ReadEvidence(f)
	if err != nil {
		return nil, usagef("--evidence %s: %v", file, err)
	}
	return e, nil
}
