package report

import (
	"fmt"

	"github.com/locksim/locksim/pattern"
)

// The glossary defines, once, every term the report uses in a sense of
// its own; the text links to it where a term first matters.

// glossaryTerm is one entry: the term and its definition.
type glossaryTerm struct{ term, def string }

func glossaryTerms() []glossaryTerm {
	return []glossaryTerm{
		{"claim", "what a pattern promises and the oracles judge it by; a pattern is never held to a claim it does not make. Claims come in three kinds, counted, coloured and plotted apart, never pooled: safety, liveness and promptness."},
		{"safety", "the claims that data stays right: mutex, safe-store, fencing, max-holders. The Safety tables, the safety curves, the production safety grid and every decision rule count these alone."},
		{"mutex", "no two clients rely on the lock at one instant of true time (their critical sections do not overlap)."},
		{"safe-store", "a store that checks fencing tokens loses no update: every write that lands builds on the last one."},
		{"fencing", "the tokens a pattern issues strictly increase across holders, so a store can refuse a stale holder's write."},
		{"max-holders", "no more than N clients hold a shared lock (a semaphore's permits) at once."},
		{"liveness", "the claims that the lock stays usable: progress, and no-starvation as measured."},
		{"progress", fmt.Sprintf("after the lock becomes free (released, or its holder gone and its key expired), some waiting client holds it again within %d TTLs of true time; a stall is a breach of that bound.", pattern.ProgressTTLs)},
		{"no-starvation", "no client is stuck: each acquires at least once in the run's last stretch. Measured for every pattern (\"stuck\" in the liveness tables), claimed by none of the built-in ones."},
		{"promptness", "the claim that a holder learns in time that it lost the lock: loss-signal."},
		{"loss-signal", "when the server lets a holder's lock go (the key expired, was deleted, taken, or lost by a restart or failover) before the holder released it, the holder learns of it (its lease's Done closes, or its Release fails) within the pattern's bound, a percentage of the TTL, its own pauses aside. A late loss signal is no overlap by itself: it becomes a safety violation only if the holder writes meanwhile and nothing stops the write."},
		{"store checks tokens, tokens withheld", "the store checks the fencing tokens of the patterns that issue them (rejects a write with a lower token than one it has seen), as every run does for them; patterns that issue none are run as they are. \"Tokens withheld\" (no token checked) is the same seeds run again with the tokens kept from the store, the lost updates the pattern would have without a checking store."},
		{"violating seeds (k/n)", "the seeds, of n run, whose run broke a claim of the kind the table counts; each with its 95% Wilson interval. A clean k=0 cell says no seed in n broke it, not that none can."},
		{"†", fmt.Sprintf("a clean cell of fewer than %d seeds: too few to have seen a violation of rate %s%% with 95%% probability.", SeedsToSee(CareRate), pct(CareRate))},
		{"k/h and k/M rates", "violations of the kind's claims per hour of simulated time (/h) and per million successful acquisitions (/M), summed over a cell's seeds; k is a thousand, M a million. One run can break a claim many times, so these count findings, not seeds."},
		{"not claimed", "what the oracles found of a claim the pattern does not make (the overlaps a fencing store makes harmless): shown beside a rate, never in it."},
		{"not fired", "a production cell whose fault's trigger point was never reached in a seed (a renewal fault in a pattern that does not renew): such a seed is clean by default and says nothing about the fault."},
		{"× floor", "a benchmark row's cycles per second over the floor's (a hand-written SET NX PX and Lua release) on the same clients and keys: the median of per-repetition ratios, each repetition paired with the floor's run moments apart, with the confidence interval of that median (95% or more; the level is printed where too few repetitions give less). It need not equal the ratio of the two medians of cycles/s printed beside it."},
		{"broken variant", "a pattern with one of the seed articles' mistakes, claiming what the correct pattern claims, kept to prove the checks catch it."},
	}
}

// glossary writes the section.
func glossary(d *Document) {
	d.heading(2, "glossary", "Glossary")
	var l List
	for _, t := range glossaryTerms() {
		l = append(l, []Span{bold("%s", t.term), text(": %s", t.def)})
	}
	d.add(l)
}
