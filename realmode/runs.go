package realmode

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/locksim/locksim/sim"
)

// RunMany runs cfg runs times, seeds cfg.Seed, cfg.Seed+1, …, each with a
// fresh set of processes, at most parallel at once. It returns the
// results in seed order; the first error stops the runs not yet started.
func RunMany(ctx context.Context, cfg Config, runs, parallel int) ([]*Result, error) {
	if runs < 1 || parallel < 1 {
		return nil, fmt.Errorf("realmode: runs (%d) and parallel (%d) must be at least 1", runs, parallel)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := make([]*Result, runs)
	errs := make([]error, runs)
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for i := range runs {
		if ctx.Err() != nil {
			errs[i] = ctx.Err()
			break
		}
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			c := cfg
			c.Seed = cfg.Seed + uint64(i)
			if out[i], errs[i] = Run(ctx, c); errs[i] != nil {
				cancel()
			}
		}()
	}
	wg.Wait()
	return out, firstCause(errs)
}

// firstCause is the first error that is not the cancellation the first
// error caused in the runs beside it (or the first error, if all are).
func firstCause(errs []error) error {
	var first error
	for _, err := range errs {
		switch {
		case err == nil:
		case !errors.Is(err, context.Canceled):
			return err
		case first == nil:
			first = err
		}
	}
	return first
}

// Tally counts the runs that broke a claim (and those whose clients failed).
type Tally struct {
	Runs     int `json:"runs"`
	Violated int `json:"violated"`
	Failed   int `json:"failed"` // client processes that crashed or hung
	// Unfired counts the runs (of Runs) in which a fault of the scenario
	// did not fire: such a run tested less than the scenario says, and its
	// holding is no evidence of safety (0 in cells made before runs kept
	// their firing records).
	Unfired int `json:"unfired,omitempty"`
	// Descheduled counts the runs in which the machine stopped a client
	// past TTL/StopFraction (Result.Descheduled); NotJudged those in which
	// a claim could not be judged (Result.NotJudged).
	Descheduled int `json:"descheduled,omitempty"`
	NotJudged   int `json:"not_judged,omitempty"`
	// Kinds counts, per kind of claim (sim.ClaimKind), the runs of
	// Violated that broke a claim of that kind: a run can count in more
	// than one. Zero in cells made before runs were counted by kind.
	Kinds KindCounts `json:"kinds,omitzero"`
}

// KindCounts counts runs per kind of claim broken.
type KindCounts struct {
	Safety     int `json:"safety,omitempty"`
	Liveness   int `json:"liveness,omitempty"`
	Promptness int `json:"promptness,omitempty"`
}

// addViolated counts a run that broke the claims violated.
func (t *Tally) addViolated(violated []string) {
	if len(violated) == 0 {
		return
	}
	t.Violated++
	var k KindCounts
	for _, c := range violated {
		switch sim.ClaimKind(c) {
		case sim.KindSafety:
			k.Safety = 1
		case sim.KindLiveness:
			k.Liveness = 1
		case sim.KindPromptness:
			k.Promptness = 1
		}
	}
	t.Kinds.Safety += k.Safety
	t.Kinds.Liveness += k.Liveness
	t.Kinds.Promptness += k.Promptness
}

// Kind is the runs that broke a claim of kind k (sim.ClaimKind's names),
// and whether the tally counted kinds at all: false for a cell made
// before it did in which some run broke a claim.
func (t Tally) Kind(k string) (int, bool) {
	if t.Violated > 0 && t.Kinds == (KindCounts{}) {
		return 0, false
	}
	switch k {
	case sim.KindSafety:
		return t.Kinds.Safety, true
	case sim.KindLiveness:
		return t.Kinds.Liveness, true
	}
	return t.Kinds.Promptness, true
}

// Count tallies results.
func Count(rs []*Result) Tally {
	t := Tally{}
	for _, r := range rs {
		if r == nil {
			continue
		}
		t.Runs++
		if r.FaultsFired() < len(r.Faults) {
			t.Unfired++
		}
		if r.Descheduled {
			t.Descheduled++
		}
		if len(r.NotJudged) > 0 {
			t.NotJudged++
		}
		if len(r.Failures) > 0 {
			t.Failed++
		} else {
			t.addViolated(r.Violated)
		}
	}
	return t
}

// Rate is the share of runs that broke a claim, with its 95% Wilson
// interval.
func (t Tally) Rate() (p, lo, hi float64) { return Wilson(t.Violated, t.Runs-t.Failed) }

// Wilson returns k/n and its 95% Wilson score interval (0, 0, 1 for n = 0).
func Wilson(k, n int) (p, lo, hi float64) {
	if n <= 0 {
		return 0, 0, 1
	}
	const z = 1.959963984540054
	p = float64(k) / float64(n)
	nf := float64(n)
	d := 1 + z*z/nf
	c := (p + z*z/(2*nf)) / d
	h := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / d
	return p, math.Max(0, c-h), math.Min(1, c+h)
}
