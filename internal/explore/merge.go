package explore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
)

// Merge combines reports of the same grid — shards of it, or runs of
// disjoint shards — into one. When the reports hold every shard, the
// result is exactly the report of one unsharded run.
func Merge(reps ...*Report) (*Report, error) {
	if len(reps) == 0 {
		return nil, fmt.Errorf("merge: no reports")
	}
	out := &Report{Format: FormatVersion, Made: reps[0].Made, Cells: cloneCells(reps[0].Cells)}
	shards, err := mergeShards(reps)
	if err != nil {
		return nil, err
	}
	out.Shard = shards
	for i, r := range reps {
		if err := checkCounts(r); err != nil {
			return nil, fmt.Errorf("merge: report %d: counts do not add up: %w", i+1, err)
		}
	}
	for i, r := range reps[1:] {
		if err := sameProvenance(reps[0], r); err != nil {
			return nil, fmt.Errorf("merge: report %d: %w", i+2, err)
		}
		if err := sameGrid(reps[0], r); err != nil {
			return nil, fmt.Errorf("merge: report %d: %w", i+2, err)
		}
		for j := range out.Cells {
			out.Cells[j].Tally.Add(r.Cells[j].Tally)
		}
	}
	out.finish()
	return out, nil
}

// mergeShards unions the reports' shard sets; nil when they add up to
// every seed.
func mergeShards(reps []*Report) (*ShardSet, error) {
	n := 0
	var have []int
	for i, r := range reps {
		if r.Format != FormatVersion {
			return nil, fmt.Errorf("merge: report %d: format %q, want %q", i+1, r.Format, FormatVersion)
		}
		if r.Partial != nil {
			return nil, fmt.Errorf("merge: report %d is partial (stopped after %d of %d runs): run its shard again", i+1, r.Partial.Done, r.Partial.Total)
		}
		if r.Shard == nil {
			return nil, fmt.Errorf("merge: report %d holds every seed already; merge only shards (--shard i/n)", i+1)
		}
		if n != 0 && r.Shard.N != n {
			return nil, fmt.Errorf("merge: report %d is a shard of %d, report 1 of %d", i+1, r.Shard.N, n)
		}
		n = r.Shard.N
		for _, s := range r.Shard.Have {
			if s < 0 || s >= n {
				return nil, fmt.Errorf("merge: report %d: shard %d of %d out of range", i+1, s, n)
			}
			if slices.Contains(have, s) {
				return nil, fmt.Errorf("merge: report %d: shard %d/%d given twice", i+1, s, n)
			}
			have = append(have, s)
		}
	}
	if len(have) == n {
		return nil, nil
	}
	slices.Sort(have)
	return &ShardSet{N: n, Have: have}, nil
}

// sameGrid checks that r has a's cells, in a's order, with a's seeds.
func sameGrid(a, r *Report) error {
	if len(a.Cells) != len(r.Cells) {
		return fmt.Errorf("%d cells, report 1 has %d (not the same grid)", len(r.Cells), len(a.Cells))
	}
	for i, c := range a.Cells {
		d := r.Cells[i]
		if c.Pattern != d.Pattern || c.Scenario != d.Scenario || c.ScenarioArg != d.ScenarioArg ||
			c.Seeds != d.Seeds || !slices.Equal(c.Claims, d.Claims) {
			return fmt.Errorf("cell %d is %s under %s (seeds %d+%d), report 1 has %s under %s (seeds %d+%d)",
				i+1, d.Pattern, d.ScenarioArg, d.Seeds.Start, d.Seeds.Count, c.Pattern, c.ScenarioArg, c.Seeds.Start, c.Seeds.Count)
		}
		if c.ScenarioSHA256 != d.ScenarioSHA256 {
			return fmt.Errorf("cell %d (%s under %s): scenario_sha256 %s, report 1 has %s (the scenario's content differs)",
				i+1, d.Pattern, d.ScenarioArg, d.ScenarioSHA256, c.ScenarioSHA256)
		}
		if !sameFaults(c.Faults, d.Faults) {
			return fmt.Errorf("cell %d (%s under %s): other faults than report 1's", i+1, d.Pattern, d.ScenarioArg)
		}
	}
	return nil
}

// cloneCells copies cells deeply enough that adding to the copies leaves
// the originals alone.
func cloneCells(cells []CellResult) []CellResult {
	out := make([]CellResult, len(cells))
	for i, c := range cells {
		c.Claims = slices.Clone(c.Claims)
		c.Faults = slices.Clone(c.Faults)
		broke := make(map[string]*Found, len(c.Broke))
		for k, f := range c.Broke {
			g := *f
			broke[k] = &g
		}
		c.Broke = broke
		c.Unclaimed = maps.Clone(c.Unclaimed)
		out[i] = c
	}
	return out
}

// WriteJSON writes r as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// ReadJSON reads a report written by WriteJSON.
func ReadJSON(rd io.Reader) (*Report, error) {
	data, err := io.ReadAll(rd)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var r Report
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("not an exploration report: %w", err)
	}
	if r.Format != FormatVersion {
		return nil, fmt.Errorf("format %q, want %q (a file written by locksim explore --json)", r.Format, FormatVersion)
	}
	for i, c := range r.Cells {
		if c.Broke == nil {
			r.Cells[i].Broke = map[string]*Found{}
		}
	}
	return &r, nil
}
