package archtest

import (
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// notLockAPI are names package locks must not export: what builds a
// Locker outside it (package lockkit), the Lua (package scripts), the
// deliberate mistakes (internal/pitfall) and the lock code's fingerprint
// (internal/lockbridge). A lock user calls none of them.
var notLockAPI = []string{"Pitfall", "WithPitfall", "Config", "Resolve", "ResolveRenewing",
	"NewLease", "Holding", "Scripts", "CodeDigest", "Sources", "DigestSources"}

// TestLocksExportsOnlyALockLibrary: `go doc locks` shows what a lock user
// calls. No exported name of package locks is one of notLockAPI, and no
// exported declaration's doc speaks of a Pitfall.
func TestLocksExportsOnlyALockLibrary(t *testing.T) {
	for _, v := range lockAPIViolations(t, filepath.Join("..", "..", "locks")) {
		t.Error(v)
	}
}

// TestLockAPIRuleCatchesTheKit proves the rule on a fixture: a package
// exporting a Pitfall and a NewLease, and a method documented by one.
func TestLockAPIRuleCatchesTheKit(t *testing.T) {
	dir := t.TempDir()
	src := `package locks

// Pitfall is a mistake.
type Pitfall struct{}

type Options struct{}

// WithPitfall sets one: see Pitfall.
func (o Options) WithPitfall(p Pitfall) Options { return o }

// NewLease makes a lease.
func NewLease() {}

// NewBasic is a lock.
func NewBasic() {}
`
	if err := os.WriteFile(filepath.Join(dir, "locks.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	got := lockAPIViolations(t, dir)
	for _, want := range []string{"Pitfall", "WithPitfall", "NewLease"} {
		if !slices.ContainsFunc(got, func(v string) bool { return strings.HasPrefix(v, "locks exports "+want+" ") }) {
			t.Errorf("the rule missed %s: %q", want, got)
		}
	}
	if slices.ContainsFunc(got, func(v string) bool { return strings.Contains(v, "NewBasic") }) {
		t.Errorf("the rule flagged NewBasic: %q", got)
	}
}

// lockAPIViolations returns one line per exported name of the package in
// dir (tests left out) that notLockAPI names, or whose doc says Pitfall.
func lockAPIViolations(t *testing.T, dir string) []string {
	t.Helper()
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, dir, func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range pkgs {
		d := doc.New(p, "locks", 0)
		check := func(name, text string) {
			switch {
			case slices.Contains(notLockAPI, name):
				out = append(out, "locks exports "+name+" (not a lock user's API: see notLockAPI)")
			case strings.Contains(text, "Pitfall"):
				out = append(out, "locks documents "+name+" by a Pitfall (the deliberate mistakes are internal)")
			}
		}
		for _, f := range d.Funcs {
			check(f.Name, f.Doc)
		}
		for _, ty := range d.Types {
			check(ty.Name, ty.Doc)
			for _, f := range append(ty.Funcs, ty.Methods...) {
				check(f.Name, f.Doc)
			}
		}
		for _, v := range append(d.Vars, d.Consts...) {
			for _, n := range v.Names {
				check(n, v.Doc)
			}
		}
		if strings.Contains(d.Doc, "Pitfall") {
			out = append(out, "the package doc of locks speaks of a Pitfall")
		}
	}
	slices.Sort(out)
	return out
}
