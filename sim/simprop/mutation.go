package simprop

import "fmt"

// Mutation names, for one broken variant of the catalog, the correct
// pattern it imitates and the property of that pattern whose envelope
// holds the faults its pitfall needs: the property must find a
// counterexample on the variant, and none on the correct pattern.
type Mutation struct {
	Variant, Correct, Property string
	Why                        string // how the pitfall shows inside the envelope
}

// Mutations lists every broken variant of the catalog.
func Mutations() []Mutation {
	return []Mutation{
		{"basic-del", "basic", "mutex",
			"a holder outlives its TTL (a pause or slow step before its check), abandons its write, and its DEL frees the next holder's lock"},
		{"reentrant-nocount", "reentrant", "mutex-nested",
			"leaving the inner entry deletes the key while the outer section still runs"},
		{"watchdog-renew-ttl", "watchdog", "renewal",
			"a step longer than the TTL: the renewal, due when the key expires, comes too late"},
		{"service-seconds", "service", "mutex",
			"a 100ms TTL becomes EXPIRE 0: the key is gone as soon as it is set"},
		{"fenced-volatile", "fenced", "safe-store",
			"the counter expires a TTL after the last acquisition: any gap of a TTL (a long section, a pause, a partition) starts tokens again at 1"},
		{"redlock-novalidity", "redlock", "mutex",
			"a pause inside Acquire, after the requests went out: the quorum is counted after the keys expired and trusted for a full TTL"},
		{"redlock-fenced-pernode", "fenced", "safe-store",
			"nodes that miss acquisitions (cut off, lossy, down) fall behind, and a later quorum of them issues a token already issued"},
		{"fair-clock-queue", "fair", "fifo",
			"a client whose wall clock is ahead queues behind clients that came after it"},
		{"rwlock-shared-count", "rwlock", "rw-exclusion",
			"the seed's lock grants however late (a pause inside Lock past the TTL hands out a lease already expired), and a stray read release frees a reader's count"},
	}
}

// MutationOf returns the mutation of the named variant.
func MutationOf(variant string) (Mutation, error) {
	for _, m := range Mutations() {
		if m.Variant == variant {
			return m, nil
		}
	}
	return Mutation{}, fmt.Errorf("simprop: no mutation for variant %q", variant)
}
