package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/locksim/locksim/internal/buildinfo"
	"github.com/locksim/locksim/internal/safefile"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/realmode"
	"github.com/locksim/locksim/sim/scenario"
)

// runRealTable runs the agreement table (or merges cells into it) and
// writes it to f.table and its agreement.json. The files are written
// again as each cell is made, the cells made so far merged into the table
// as it was, so a run that fails, is interrupted or is killed loses no
// cell it finished: --merge --stale then runs the rest. A run without
// --merge that completes replaces the table with its cells alone.
func runRealTable(cmd *cobra.Command, f realFlags) error {
	data := filepath.Join(filepath.Dir(f.table), realmode.AgreementFileName)
	var paths safefile.Paths
	paths.Input("--merge-from", f.mergeFrom)
	paths.Output("--table", f.table)
	paths.Output("--table (its "+realmode.AgreementFileName+" beside it)", data)
	if err := checkPaths(&paths); err != nil {
		return err
	}
	var base *realmode.AgreementFile
	if f.merge || f.mergeFrom != "" {
		b, err := readAgreement("--table (the "+realmode.AgreementFileName+" to merge into)", data)
		if err != nil {
			return err
		}
		base = &b
	}
	// The table the cells made so far are merged into: the one given with
	// --merge, or, without it, the one there is (a table that cannot be
	// read is replaced, as at the end).
	sofarBase := base
	if base == nil {
		if b, err := realmode.ReadAgreementFile(data); err == nil {
			sofarBase = &b
		}
	}
	write := func(out realmode.AgreementFile) error {
		err := safefile.Write(f.table, func(w io.Writer) error {
			writeTableHeader(w, out)
			return realmode.WriteTable(w, out.Cells)
		})
		if err != nil {
			return fmt.Errorf("write %s: %w", f.table, err)
		}
		if err := safefile.Write(data, func(w io.Writer) error { return realmode.WriteAgreementFile(w, out) }); err != nil {
			return fmt.Errorf("write %s: %w", data, err)
		}
		return nil
	}
	merged := func(base *realmode.AgreementFile, add realmode.AgreementFile) realmode.AgreementFile {
		if base == nil {
			return add
		}
		return realmode.MergeAgreement(*base, add)
	}
	add, err := newCells(cmd, f, func(sofar realmode.AgreementFile) error { return write(merged(sofarBase, sofar)) })
	if err != nil {
		return err
	}
	if err := write(merged(base, add)); err != nil {
		return runtimef("real: %w", err)
	}
	return nil
}

// newCells runs the cells selected, or reads them from --merge-from;
// progress is given the cells made so far each time one is made.
func newCells(cmd *cobra.Command, f realFlags, progress func(realmode.AgreementFile) error) (realmode.AgreementFile, error) {
	if f.stale && (!f.merge || f.mergeFrom != "") {
		return realmode.AgreementFile{}, usagef("--stale reruns the stale cells of the table: give it with --merge (not --merge-from)")
	}
	if f.mergeFrom != "" {
		if f.merge {
			return realmode.AgreementFile{}, usagef("--merge and --merge-from %s: give one (--merge runs the cells, --merge-from reads them)", f.mergeFrom)
		}
		return readAgreement("--merge-from", f.mergeFrom)
	}
	o, err := tableOptions(f)
	if err != nil {
		return realmode.AgreementFile{}, err
	}
	if f.stale {
		base, err := readAgreement("--table (the "+realmode.AgreementFileName+" to merge into)",
			filepath.Join(filepath.Dir(f.table), realmode.AgreementFileName))
		if err != nil {
			return realmode.AgreementFile{}, err
		}
		o.Only = notFresh(base)
	}
	started := time.Now()
	file := func(cells []realmode.Cell) realmode.AgreementFile {
		now := time.Now().UTC()
		src := realmode.Source{Command: "locksim " + strings.Join(os.Args[1:], " "), Build: buildinfo.String(),
			Date: now.Format("2006-01-02 15:04 UTC"), ID: fmt.Sprintf("%d-%d", started.UnixNano(), os.Getpid())}
		return realmode.AgreementFile{Format: realmode.AgreementFormat, Command: src.Command, Sources: []realmode.Source{src}, Cells: cells}
	}
	o.Done = func(sofar []realmode.Cell) error { return progress(file(sofar)) }
	ctx, stop := interruptible(cmd.Context()) // a second signal ends locksim at once
	defer stop()
	cells, err := realmode.Agreement(ctx, o)
	if err != nil {
		if len(cells) > 0 {
			err = fmt.Errorf("%w (the %d cell(s) made before are in %s: --merge --stale with the same selection runs the rest)", err, len(cells), f.table)
		}
		return realmode.AgreementFile{}, realError(err)
	}
	return file(cells), nil
}

// notFresh selects the cells of base that are stale (cellStaleness) and
// those base lacks: the cells --stale reruns.
func notFresh(base realmode.AgreementFile) func(subject, scenario string) bool {
	fresh := map[[2]string]bool{}
	for _, c := range base.Cells {
		fresh[[2]string{c.Pattern, c.Scenario}] = cellStaleness(c) == ""
	}
	return func(subject, scenario string) bool { return !fresh[[2]string{subject, scenario}] }
}

// readAgreement reads an agreement file named by flag; a file from before
// files named their runs gets its run from the heading of the README.md
// beside it.
func readAgreement(flag, path string) (realmode.AgreementFile, error) {
	a, err := realmode.ReadAgreementFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return a, usagef("%s: %s does not exist (make the table first, without --merge)", flag, path)
	case err != nil:
		return a, usagef("%s: %v", flag, err)
	}
	if len(a.Sources) == 0 {
		if md, err := os.ReadFile(filepath.Join(filepath.Dir(path), "README.md")); err == nil {
			if s, ok := realmode.SourceOfTable(string(md)); ok && s.Command == a.Command {
				a.Sources = []realmode.Source{s}
			}
		}
	}
	return a, nil
}

// writeTableHeader is the agreement table's heading: the runs that made
// it, and when.
func writeTableHeader(out io.Writer, f realmode.AgreementFile) {
	fmt.Fprintf(out, "# Real mode: the simulator's verdicts on real redis-server\n\n")
	const what = "Real runs on this machine beside the simulator's seeds of the same scenario. Each kind of claim " +
		"has its own column — safety (mutex, safe-store, fencing, max-holders), liveness (progress), promptness " +
		"(loss-signal) — giving the runs that broke a claim of that kind, simulator · real (— where the pattern makes " +
		"no claim of the kind). A cell agrees when, kind by kind, both sides broke it or neither did. The runs column " +
		"gives the rate over any claim with its 95% Wilson interval, and what made a run count for less. " +
		"See NOTES.md for every disagreement.\n\n"
	if len(f.Sources) <= 1 {
		s := realmode.Source{Command: f.Command}
		if len(f.Sources) == 1 {
			s = f.Sources[0]
		}
		fmt.Fprintf(out, "Generated by `%s`%s. %s", s.Command, made(s), what)
		return
	}
	fmt.Fprintf(out, "Generated by %d runs of the table, merged (`--merge` replaces only the cells it runs); "+
		"the run column of each row names the run that made it:\n\n", len(f.Sources))
	for i, s := range f.Sources {
		n := 0
		for _, c := range f.Cells {
			if c.Source == i {
				n++
			}
		}
		fmt.Fprintf(out, "%d. `%s`%s: %d cells\n", i+1, s.Command, made(s), n)
	}
	fmt.Fprintf(out, "\n%s", what)
}

// made is " (BUILD), DATE" as far as the run's are known.
func made(s realmode.Source) string {
	out := ""
	if s.Build != "" {
		out += " (" + s.Build + ")"
	}
	if s.Date != "" {
		out += ", " + s.Date
	}
	return out
}

// tableOptions resolves the table's subjects and scenarios.
func tableOptions(f realFlags) (realmode.AgreeOptions, error) {
	o := realmode.AgreeOptions{Runs: f.runs, SimSeeds: f.simSeeds, Parallel: f.parallel, Progress: os.Stderr,
		Commit: buildinfo.Commit(), Build: buildinfo.String()}
	if f.runs < 1 || f.simSeeds < 1 || f.parallel < 1 {
		return o, usagef("--runs %d, --sim-seeds %d, --parallel %d: want each at least 1", f.runs, f.simSeeds, f.parallel)
	}
	var err error
	if o.Client, err = clientArgv(f.client); err != nil {
		return o, err
	}
	pats, scens := listFlag(f.pattern), listFlag(f.scenario)
	var names []string
	for _, p := range pattern.All() {
		if !p.Broken {
			names = append(names, p.Name)
			if pats == nil || slices.Contains(pats, p.Name) {
				o.Patterns = append(o.Patterns, p)
			}
		}
	}
	// --pattern may name --libraries' subjects too: a table of library
	// rows alone (pattern.All has none of them).
	names = append(names, listFlag(f.libraries)...)
	if err := unknownIn("--pattern", pats, names, "a correct pattern of the catalog, nor one of --libraries"); err != nil {
		return o, err
	}
	names = nil
	for _, b := range scenario.Builtins() {
		names = append(names, b.Name)
		if scens == nil || slices.Contains(scens, b.Name) {
			o.Scenarios = append(o.Scenarios, b)
		}
	}
	if err := unknownIn("--scenario", scens, names, "a built-in scenario"); err != nil {
		return o, err
	}
	return o, tableLibraries(f, &o)
}

// unknownIn is a usage error naming the first of asked that is not in
// known.
func unknownIn(flag string, asked, known []string, what string) error {
	for _, a := range asked {
		if !slices.Contains(known, a) {
			return usagef("%s %q: not %s (see locksim list; a table takes built-in names, comma-separated)", flag, a, what)
		}
	}
	return nil
}

// listFlag splits a comma-separated flag; nil when it is empty.
func listFlag(s string) []string {
	if s == "" {
		return nil
	}
	var out []string
	for _, v := range strings.Split(s, ",") {
		out = append(out, strings.TrimSpace(v))
	}
	return out
}

func tableLibraries(f realFlags, o *realmode.AgreeOptions) error {
	if f.libraries == "" {
		return nil
	}
	own, rest, err := langTableClients(listFlag(f.libraries))
	if err != nil {
		return err
	}
	o.LibraryClients = own
	if len(rest) > 0 && f.libClient == "" {
		return usagef("--libraries %s needs --lib-client (the binary with their adapters)", strings.Join(rest, ","))
	}
	if f.libClient != "" {
		if o.LibraryClient, err = programArgv("--lib-client", f.libClient); err != nil {
			return err
		}
	}
	for _, name := range listFlag(f.libraries) {
		client := o.LibraryClient
		if c, ok := own[name]; ok {
			client = c
		}
		p, err := realmode.Describe(client, nil, name)
		if err != nil {
			return usagef("--libraries: %v", err)
		}
		o.Libraries = append(o.Libraries, p)
	}
	return nil
}
