package realmode

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/locksim/locksim/internal/lockbridge"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/scenario"
)

// OracleVersion names the oracles that judge a cell, the simulator's and
// real mode's: it changes whenever one of them judges differently, so
// that every cell made before is shown stale. 2: progress and loss-signal
// judged for real, a not-judged claim listed. 3: a loss's lateness
// judged at the end of the run, with every stop of its holder known.
// 4: a last look at a holding as its Release begins (a node back empty
// since the last poll is a loss, not a clean release), and a restarted
// node answering within a millisecond of its start. 5: a lease whose Err
// is non-nil as its Release begins is told lost then (not only by the
// Release's return).
const OracleVersion = "5"

// A cell's fingerprint is a digest of each input that decides its
// verdicts, written "name:digest" and joined by spaces, so that a
// mismatch can say which input changed:
//
//	oracles   OracleVersion
//	subject   the subject's name, node count and claims (with their bounds)
//	scenario  the scenario's canonical text (scenario.Format), as resolved
//	code      the lock code as built (lockbridge.CodeDigest), for a pattern of
//	          this build; a library's own code is not known here
const fingerprintParts = "oracles subject scenario code"

// Fingerprint is the fingerprint of a cell of subject p under sc (sc
// resolved to p's nodes); library marks a subject of a client binary.
func Fingerprint(p pattern.Pattern, sc scenario.Scenario, library bool) string {
	parts := []string{
		part("oracles", OracleVersion),
		part("subject", fmt.Sprintf("%s nodes=%d %+v", p.Name, p.Nodes, p.Claims)),
		part("scenario", scenario.Format(sc)),
	}
	if !library {
		parts = append(parts, part("code", lockCode()))
	}
	return strings.Join(parts, " ")
}

// lockCode is the lock code's digest (a test changes it).
var lockCode = lockbridge.CodeDigest

func part(name, input string) string {
	sum := sha256.Sum256([]byte(input))
	return name + ":" + hex.EncodeToString(sum[:6])
}

// Staleness says why a cell's verdicts were made by other inputs than
// fingerprint (this build's), or "" when the cell is fresh.
func (c Cell) Staleness(fingerprint string) string {
	if c.Fingerprint == "" {
		return "made before cells carried a fingerprint"
	}
	have, want := splitParts(c.Fingerprint), splitParts(fingerprint)
	var changed []string
	for _, name := range strings.Fields(fingerprintParts) {
		if have[name] != want[name] {
			changed = append(changed, map[string]string{
				"oracles": "the oracles", "subject": "the subject's claims or nodes",
				"scenario": "the scenario's text", "code": "the lock code (its Go sources or scripts)"}[name])
		}
	}
	if len(changed) == 0 {
		return ""
	}
	s := strings.Join(changed, ", ") + " changed since it was made"
	if c.Commit != "" {
		s += " (at commit " + c.Commit + ")"
	}
	return s
}

func splitParts(fp string) map[string]string {
	out := map[string]string{}
	for _, f := range strings.Fields(fp) {
		if name, d, ok := strings.Cut(f, ":"); ok {
			out[name] = d
		}
	}
	return out
}

// CurrentFingerprint is the fingerprint this build gives the cell c:
// its subject looked up in the catalog (a library's taken from the cell:
// its nodes and claims), its scenario among the built-ins. ok is false
// when either is gone (the cell cannot be fresh).
func CurrentFingerprint(c Cell) (fp string, ok bool) {
	p, err := pattern.Lookup(c.Pattern)
	library := err != nil
	if library {
		p = pattern.Pattern{Name: c.Pattern, Nodes: c.Nodes, Claims: c.ClaimSet}
	}
	b, found := builtinScenario(c.Scenario)
	if !found {
		return "", false
	}
	sc, err := b.Scenario(p.Nodes)
	if err != nil {
		return "", false
	}
	return Fingerprint(p, sc, library), true
}

func builtinScenario(name string) (scenario.Builtin, bool) {
	for _, b := range scenario.Builtins() {
		if b.Name == name {
			return b, true
		}
	}
	return scenario.Builtin{}, false
}
