package realmode

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/locksim/locksim/internal/lockbridge"
	"github.com/locksim/locksim/pattern"
)

// madeCell is the cell of basic under gc-pause as this build makes it.
func madeCell(t *testing.T) Cell {
	t.Helper()
	p, err := pattern.Lookup("basic")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := builtinScenario("gc-pause")
	sc, err := b.Scenario(p.Nodes)
	if err != nil {
		t.Fatal(err)
	}
	return Cell{Pattern: p.Name, Scenario: b.Name, ClaimSet: p.Claims, Nodes: p.Nodes, Commit: "abc1234", Fingerprint: Fingerprint(p, sc, false)}
}

func staleness(t *testing.T, c Cell) string {
	t.Helper()
	fp, ok := CurrentFingerprint(c)
	if !ok {
		t.Fatalf("no current fingerprint for %s under %s", c.Pattern, c.Scenario)
	}
	return c.Staleness(fp)
}

// TestCellStaleWhenAScriptChanges: a cell is fresh on the build that
// made it; once a script of the lock code changes (here: extend.lua, in a
// copy of the sources), the same cell is stale and says the lock code
// changed since its commit.
func TestCellStaleWhenAScriptChanges(t *testing.T) {
	c := madeCell(t)
	if why := staleness(t, c); why != "" {
		t.Fatalf("a cell this build made is stale: %s", why)
	}
	changed := fstest.MapFS{}
	err := fs.WalkDir(lockbridge.Code(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(lockbridge.Code(), p)
		if p == "scripts/extend.lua" {
			b = append(b, []byte("\n-- a change\n")...)
		}
		changed[p] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	defer func(f func() string) { lockCode = f }(lockCode)
	lockCode = func() string { return lockbridge.DigestSources(changed) }
	why := staleness(t, c)
	if !strings.Contains(why, "the lock code") || !strings.Contains(why, "abc1234") {
		t.Errorf("after a script changed: staleness %q, want the lock code named, and the cell's commit", why)
	}
}

// TestCellStaleWhenAnInputChanges: each other input of the fingerprint
// marks the cell stale by name; a cell without one is stale too.
func TestCellStaleWhenAnInputChanges(t *testing.T) {
	c := madeCell(t)
	for _, k := range []struct {
		edit func(*Cell)
		want string
	}{
		{func(c *Cell) { c.Fingerprint = strings.Replace(c.Fingerprint, "scenario:", "scenario:00", 1) }, "the scenario's text"},
		{func(c *Cell) { c.Fingerprint = strings.Replace(c.Fingerprint, "oracles:", "oracles:00", 1) }, "the oracles"},
		{func(c *Cell) { c.Fingerprint = strings.Replace(c.Fingerprint, "subject:", "subject:00", 1) }, "the subject's claims"},
		{func(c *Cell) { c.Fingerprint = "" }, "before cells carried a fingerprint"},
	} {
		d := c
		k.edit(&d)
		if why := staleness(t, d); !strings.Contains(why, k.want) {
			t.Errorf("staleness %q, want it to name %q", why, k.want)
		}
	}
	if _, ok := CurrentFingerprint(Cell{Pattern: "basic", Scenario: "no-such-scenario"}); ok {
		t.Error("a cell of a scenario that is not built in has a current fingerprint")
	}
}
