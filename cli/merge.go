package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/locksim/locksim/internal/explore"
	"github.com/locksim/locksim/internal/safefile"
)

// mergeHelp is the help of locksim merge.
const mergeHelp = `Reads the --json output of 'locksim explore --shard i/n' runs of one grid
(same --pattern, --scenario, --seeds and --seed-start) and prints their
combined report. With all n shards it is exactly the report of one
unsharded explore run (the same JSON, byte for byte); with some of them,
the report says which shards it holds.

Every shard records what it was made from: the locksim version and
commit, the sha256 of each cell's scenario (a file's content, a
built-in's text), the expectations file where a gate made it, and each
cell's seed range. merge refuses shards that differ in any of it, naming
the field and both values, and shards whose counts do not add up (a
cell's runs are not its seeds in the shard, some count exceeds the runs,
a claim is broken in more runs than violating_runs, a first seed is named
without its count or a count without its first seed, or a rate, mean or
replay command is not the one the cell's counts give).

Exits 2 when a file cannot be read, is not an exploration report, is
partial (an interrupted explore), is of another grid, shard count,
scenario content or locksim build, has counts that do not add up, or
repeats a shard, and when --out is one of the shards or cannot be
written (checked before anything is read).`

func newMergeCmd() *cobra.Command {
	var asJSON bool
	var out string
	cmd := &cobra.Command{
		Use:   "merge FILE...",
		Short: "Combine the JSON of explore shards into one report",
		Long:  mergeHelp,
		Example: `  for i in 0 1 2 3; do locksim explore --pattern all --scenario all --seeds 4000 --shard $i/4 --json --out shard$i.json & done; wait
  locksim merge shard*.json
  locksim merge --json --out all.json shard*.json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, files []string) error {
			var paths safefile.Paths
			for i, f := range files {
				paths.Input(fmt.Sprintf("shard %d", i+1), f)
			}
			paths.Output("--out", out)
			if err := checkPaths(&paths); err != nil {
				return err
			}
			rep, err := mergeFiles(files)
			if err != nil {
				return err
			}
			return writeOutput(cmd.OutOrStdout(), "--out", out, func(w io.Writer) error {
				if asJSON {
					return rep.WriteJSON(w)
				}
				return rep.WriteText(w)
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().StringVar(&out, "out", "", "write the result to this file instead of stdout")
	return cmd
}

// mergeFiles reads and merges the reports in files.
func mergeFiles(files []string) (*explore.Report, error) {
	var reps []*explore.Report
	for _, path := range files {
		rep, err := readReportFile(path)
		if err != nil {
			return nil, usageError{err}
		}
		reps = append(reps, rep)
	}
	rep, err := explore.Merge(reps...)
	if err != nil {
		return nil, usagef("%v (files in the order given: %v)", err, files)
	}
	return rep, nil
}

func readReportFile(path string) (*explore.Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rep, err := explore.ReadJSON(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rep, nil
}
