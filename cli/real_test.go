package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/locks/lockstest/redistest"
	"github.com/locksim/locksim/realmode"
	"github.com/locksim/locksim/sim"
)

// realClientEnv makes this test binary, re-executed by `locksim real` as
// its own client (os.Executable is the test binary), run the client.
const realClientEnv = "LOCKSIM_CMD_TEST_REAL_CLIENT"

func init() {
	if os.Getenv(realClientEnv) == "1" {
		os.Exit(realmode.ClientMain())
	}
}

func needRealRedis(t *testing.T) {
	t.Helper()
	if !redistest.Available() {
		if os.Getenv("CI") == "true" {
			t.Fatal("redis-server not found on PATH, and CI=true requires the real-mode tests to run")
		}
		t.Skip("redis-server not installed")
	}
	t.Setenv(realClientEnv, "1")
}

// TestRealUsageErrors: bad flags and a refused fault exit 2, naming what
// was wrong.
func TestRealUsageErrors(t *testing.T) {
	loss := filepath.Join(t.TempDir(), "loss.txt")
	if err := os.WriteFile(loss, []byte("start clients=2\nloss c1|n1 for=10ms rate=10%\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"real", "--scenario", "gc-pause"}, "--pattern is required"},
		{[]string{"real", "--pattern", "basic"}, "--scenario is required"},
		{[]string{"real", "--pattern", "nope", "--scenario", "gc-pause"}, `unknown pattern "nope"`},
		{[]string{"real", "--pattern", "basic", "--scenario", "gc-pause", "--runs", "0"}, "--runs 0"},
		{[]string{"real", "--pattern", "basic", "--scenario", loss}, "loss"},
		{[]string{"real", "--pattern", "basic", "--scenario", "gc-pause", "--client", "/no/such/client"}, "--client"},
	} {
		_, _, err := runCLI(t, c.args...)
		if exitCode(err) != exitUsage || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: exit %d, %v; want exit 2 naming %q", c.args, exitCode(err), err, c.want)
		}
	}
}

// TestRealVerdicts: basic under a real pause past its TTL exits 1 naming
// the broken claim; fenced under such a pause exits 0; --json carries
// the tally.
func TestRealVerdicts(t *testing.T) {
	needRealRedis(t)
	out, _, err := runCLI(t, "real", "--pattern", "basic", "--scenario", "gc-pause", "--runs", "2")
	var ve violationError
	if !errors.As(err, &ve) || !strings.Contains(out, "VIOLATED [mutex]") {
		t.Fatalf("basic under gc-pause: %v\n%s", err, out)
	}
	// gc-pause with a 1s TTL (the pause 1.5 TTL): fenced's loss-signal
	// bound is then 10ms, room a loaded machine keeps after a SIGCONT
	// (gc-pause's 1ms it does not always: the claim broke beside two CPU
	// hogs).
	slow := filepath.Join(t.TempDir(), "gc-pause-1s.txt")
	if err := os.WriteFile(slow, []byte("scenario gc-pause-1s\nstart clients=2 ttl=1s duration=2s\npause c1 on=write for=1500ms\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err = runCLI(t, "real", "--pattern", "fenced", "--scenario", slow, "--json")
	if err != nil {
		t.Fatalf("fenced under gc-pause: %v\n%s", err, out)
	}
	var got struct {
		Runs []struct {
			Faults []sim.FaultFiring `json:"faults"`
		} `json:"runs"`
		Tally realmode.Tally `json:"tally"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || got.Tally.Runs != 1 || got.Tally.Violated != 0 {
		t.Errorf("fenced --json: tally %+v (%v)\n%s", got.Tally, err, out)
	}
	// The pause performed, as the simulator's firing record.
	if len(got.Runs) != 1 || len(got.Runs[0].Faults) != 1 || !got.Runs[0].Faults[0].Fired ||
		!strings.HasPrefix(got.Runs[0].Faults[0].Fault, "pause c1") || got.Runs[0].Faults[0].At <= 0 {
		t.Errorf("fenced --json: runs' faults %+v, want gc-pause's one pause, fired", got.Runs)
	}
}

// TestRealNoRedisServer: without redis-server on PATH, real exits 3 and
// says what is missing.
func TestRealNoRedisServer(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, _, err := runCLI(t, "real", "--pattern", "basic", "--scenario", "gc-pause")
	if exitCode(err) != exitRuntime || !strings.Contains(err.Error(), "redis-server not found") {
		t.Errorf("no redis-server: exit %d, %v; want exit 3 naming redis-server", exitCode(err), err)
	}
}

// TestRealTableWritesAgreementFile: --table writes the markdown and, beside
// it, the same cells as agreement.json, which report --real reads.
func TestRealTableWritesAgreementFile(t *testing.T) {
	needRealRedis(t)
	dir := t.TempDir()
	table := filepath.Join(dir, "README.md")
	_, _, err := runCLI(t, "real", "--table", table, "--pattern", "fenced", "--scenario", "gc-pause", "--runs", "1", "--sim-seeds", "2")
	if err != nil {
		t.Fatalf("real --table: %v", err)
	}
	md, err := os.ReadFile(table)
	if err != nil {
		t.Fatal(err)
	}
	f, err := realmode.ReadAgreementFile(filepath.Join(dir, realmode.AgreementFileName))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Cells) != 1 || f.Cells[0].Pattern != "fenced" || f.Cells[0].Sim.Runs != 2 || f.Cells[0].Real.Runs != 1 {
		t.Fatalf("agreement.json cells %+v", f.Cells)
	}
	parsed, err := realmode.ParseTable(strings.NewReader(string(md)))
	if err != nil || len(parsed.Cells) != 1 || parsed.Cells[0].Sim != f.Cells[0].Sim || parsed.Cells[0].Real != f.Cells[0].Real {
		t.Errorf("README.md and agreement.json differ: %+v against %+v (%v)", parsed.Cells, f.Cells, err)
	}
}

// TestRealTableMerge: --merge runs only the cells selected and keeps the
// table's others, naming both runs; --merge-from merges another file's
// cells without running any; a merge with no table to merge into, or an
// unknown name in a list, is a usage error naming it.
func TestRealTableMerge(t *testing.T) {
	needRealRedis(t)
	dir := t.TempDir()
	table := filepath.Join(dir, "README.md")
	if _, _, err := runCLI(t, "real", "--table", table, "--pattern", "fenced", "--scenario", "gc-pause", "--runs", "1", "--sim-seeds", "2"); err != nil {
		t.Fatalf("real --table: %v", err)
	}
	first := t.TempDir() // the table as it was before the merge
	for _, name := range []string{"README.md", realmode.AgreementFileName} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(first, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := runCLI(t, "real", "--table", table, "--merge", "--pattern", "basic,fenced", "--scenario", "partition", "--runs", "1", "--sim-seeds", "2"); err != nil {
		t.Fatalf("real --table --merge: %v", err)
	}
	f, err := realmode.ReadAgreementFile(filepath.Join(dir, realmode.AgreementFileName))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range f.Cells {
		got = append(got, fmt.Sprintf("%s/%s/%d", c.Pattern, c.Scenario, c.Source))
	}
	if want := "basic/partition/1 fenced/gc-pause/0 fenced/partition/1"; strings.Join(got, " ") != want || len(f.Sources) != 2 {
		t.Fatalf("merged cells %v (sources %+v), want %s from two runs", got, f.Sources, want)
	}
	md, _ := os.ReadFile(table)
	// The row of the first run, kept; whether its one real run's pause
	// fired depends on the machine (c1 may not reach its write in time),
	// and the row then says so.
	// Its real run may break loss-signal on a loaded machine (a 1ms bound
	// against a SIGCONTed process the machine runs late): the row is the
	// same either way, and so is a note of a fault unfired or a run
	// descheduled.
	kept := regexp.MustCompile(`\| fenced \| gc-pause \| 0/2 · 0/1 \| 0/2 · [01]/1 \| 0/2 · [01]/1 \| (yes|\*\*no\*\* \([a-z, ]+\)) \| sim 0/2 \(0%, 0–66%\); real [01]/1 \([0-9]+%, [0-9]+–[0-9]+%\)(, [^|]+)? \| 1 \|`)
	if !strings.Contains(string(md), "Generated by 2 runs") || !kept.Match(md) {
		t.Errorf("merged table:\n%s", md)
	}
	// The merged file merged into the table it grew from: the same cells,
	// the same two runs (the first one not named twice).
	if _, _, err := runCLI(t, "real", "--table", filepath.Join(first, "README.md"), "--merge-from", filepath.Join(dir, realmode.AgreementFileName)); err != nil {
		t.Fatalf("--merge-from: %v", err)
	}
	g, err := realmode.ReadAgreementFile(filepath.Join(first, realmode.AgreementFileName))
	if err != nil || len(g.Cells) != 3 || len(g.Sources) != 2 {
		t.Errorf("--merge-from: %d cells from %d runs (%v), want 3 from 2", len(g.Cells), len(g.Sources), err)
	}
	other := filepath.Join(t.TempDir(), "README.md")
	if _, _, err := runCLI(t, "real", "--table", other, "--merge-from", filepath.Join(dir, realmode.AgreementFileName)); exitCode(err) != exitUsage || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("--merge-from into a missing table: exit %d, %v; want exit 2", exitCode(err), err)
	}
	for _, c := range []struct{ args []string }{
		{[]string{"--pattern", "basic,nosuch"}},
		{[]string{"--scenario", "steady,nosuch"}},
	} {
		args := append([]string{"real", "--table", table, "--merge"}, c.args...)
		if _, _, err := runCLI(t, args...); exitCode(err) != exitUsage || !strings.Contains(err.Error(), `"nosuch"`) {
			t.Errorf("%v: exit %d, %v; want exit 2 naming nosuch", c.args, exitCode(err), err)
		}
	}
}

// TestRealHelpStatesTheShutdownBound: real --help states the bound
// realmode.Run keeps once interrupted.
func TestRealHelpStatesTheShutdownBound(t *testing.T) {
	out, _, err := runCLI(t, "real", "--help")
	want := fmt.Sprintf("within %d seconds", int(realmode.ShutdownBound.Seconds()))
	if err != nil || !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
		t.Errorf("real --help: %v; want it to say %q", err, want)
	}
}

// TestRealTableStaleCells: a table's cells are fresh on the build that
// made them; a cell whose fingerprint no longer matches is stale, and
// --merge --stale reruns it alone, leaving the fresh cell as it was.
func TestRealTableStaleCells(t *testing.T) {
	needRealRedis(t)
	dir := t.TempDir()
	table := filepath.Join(dir, "README.md")
	args := []string{"real", "--table", table, "--pattern", "basic,fenced", "--scenario", "gc-pause", "--runs", "1", "--sim-seeds", "2"}
	if _, _, err := runCLI(t, args...); err != nil {
		t.Fatalf("real --table: %v", err)
	}
	data := filepath.Join(dir, realmode.AgreementFileName)
	f, err := realmode.ReadAgreementFile(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range f.Cells {
		if why := cellStaleness(c); why != "" || c.Fingerprint == "" || c.Claims == "" {
			t.Fatalf("%s under %s, just made: stale %q, fingerprint %q, claims %q", c.Pattern, c.Scenario, why, c.Fingerprint, c.Claims)
		}
	}
	// fenced's cell made by other lock code (its code digest changed).
	for i, c := range f.Cells {
		if c.Pattern == "fenced" {
			f.Cells[i].Fingerprint = strings.Replace(c.Fingerprint, "code:", "code:00", 1)
			f.Cells[i].Real.Runs = 99 // a mark: a rerun replaces it
		}
	}
	var b strings.Builder
	if err := realmode.WriteAgreementFile(&b, f); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	md, err := tinyRealReport(t, t.TempDir(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md, "| fenced | gc-pause | _") || !strings.Contains(md, "the lock code (its Go sources or scripts) changed") || !strings.Contains(md, "1 cell(s) are stale") {
		t.Errorf("report does not show fenced's cell stale, with the reason:\n%s", md)
	}
	before := f.Cells
	if _, _, err := runCLI(t, append(args, "--merge", "--stale")...); err != nil {
		t.Fatalf("real --table --merge --stale: %v", err)
	}
	if f, err = realmode.ReadAgreementFile(data); err != nil {
		t.Fatal(err)
	}
	for i, c := range f.Cells {
		switch {
		case c.Pattern == "fenced" && (c.Real.Runs != 1 || cellStaleness(c) != ""):
			t.Errorf("fenced's stale cell after --stale: %+v, stale %q; want it rerun and fresh", c.Real, cellStaleness(c))
		case c.Pattern == "basic" && (c.Source != before[i].Source || c.Fingerprint != before[i].Fingerprint):
			t.Errorf("basic's fresh cell was rerun by --stale: source %d, was %d", c.Source, before[i].Source)
		}
	}
}

// TestRealTableKeepsFinishedCells: the table is written as each cell is
// made, so a run interrupted (or killed) after its first cell keeps that
// cell, names it in the error, and --merge --stale runs only the rest.
func TestRealTableKeepsFinishedCells(t *testing.T) {
	needRealRedis(t)
	dir := t.TempDir()
	table := filepath.Join(dir, "README.md")
	data := filepath.Join(dir, realmode.AgreementFileName)
	args := []string{"real", "--table", table, "--pattern", "basic,fenced", "--scenario", "gc-pause", "--runs", "1", "--sim-seeds", "2"}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { // interrupt the run once its first cell is on disk
		for ctx.Err() == nil {
			if f, err := realmode.ReadAgreementFile(data); err == nil && len(f.Cells) > 0 {
				cancel()
				return
			}
			// Real time: the run writes its cells from real redis-servers, so
			// the file is polled on the wall clock.
			time.Sleep(5 * time.Millisecond)
		}
	}()
	root := newRoot()
	root.SetArgs(args)
	var out, errb bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errb)
	err := root.ExecuteContext(ctx)
	if exitCode(err) != exitInterrupt || !strings.Contains(err.Error(), "the 1 cell(s) made before are in "+table) {
		t.Fatalf("interrupted table: exit %d, %v; want exit %d naming the cell kept", exitCode(err), err, exitInterrupt)
	}
	f, err := realmode.ReadAgreementFile(data)
	if err != nil || len(f.Cells) != 1 || f.Cells[0].Pattern != "basic" || f.Cells[0].Real.Runs != 1 {
		t.Fatalf("after the interrupt: %+v, %v; want basic's cell alone", f.Cells, err)
	}
	if md, err := os.ReadFile(table); err != nil || !strings.Contains(string(md), "| basic | gc-pause |") {
		t.Errorf("the markdown after the interrupt lacks basic's row (%v):\n%s", err, md)
	}
	kept := f.Cells[0]
	if _, _, err := runCLI(t, append(args, "--merge", "--stale")...); err != nil {
		t.Fatalf("real --table --merge --stale: %v", err)
	}
	if f, err = realmode.ReadAgreementFile(data); err != nil || len(f.Cells) != 2 {
		t.Fatalf("after --merge --stale: %+v, %v; want two cells", f.Cells, err)
	}
	for _, c := range f.Cells {
		if c.Pattern == "basic" && c.Wall != kept.Wall {
			t.Errorf("basic's kept cell was run again by --stale: wall %v, was %v", c.Wall, kept.Wall)
		}
	}
}
