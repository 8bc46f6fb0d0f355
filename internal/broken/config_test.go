package broken_test

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/pattern"
)

// counterpart names, for every broken variant, the correct pattern whose
// configuration it shares: the variant must resolve Options exactly as
// that pattern does, so that it differs from it by its pitfall alone.
var counterpart = map[string]string{
	"basic-del":               "basic",
	"basic-shared-token":      "basic",
	"reentrant-nocount":       "reentrant",
	"watchdog-renew-ttl":      "watchdog",
	"watchdog-zombie-renewal": "watchdog",
	"watchdog-late-done":      "watchdog",
	"service-seconds":         "service",
	"fenced-volatile":         "fenced",
	"redlock-novalidity":      "redlock",
	"redlock-shared-token":    "redlock",
	"redlock-fenced-pernode":  "redlock",
	"fair-clock-queue":        "fair",
	"rwlock-shared-count":     "rwlock",
}

// badOptions are Options every pattern refuses, each for one field.
var badOptions = []struct {
	name string
	o    locks.Options
}{
	{"ttl zero", locks.Options{}},
	{"ttl below drift", locks.Options{TTL: 2 * time.Millisecond}},
	{"drift half", locks.Options{TTL: time.Second, DriftFactor: 0.5}},
	{"drift negative", locks.Options{TTL: time.Second, DriftFactor: -0.1}},
	{"delay negative", locks.Options{TTL: time.Second, Retry: locks.Retry{Delay: -time.Millisecond}}},
	{"max delay negative", locks.Options{TTL: time.Second, Retry: locks.Retry{MaxDelay: -time.Millisecond}}},
	{"max delay below delay", locks.Options{TTL: time.Second, Retry: locks.Retry{Delay: 20 * time.Millisecond, MaxDelay: 5 * time.Millisecond}}},
	{"node timeout negative", locks.Options{TTL: time.Second, NodeTimeout: -time.Millisecond}},
}

// renewing are the variants that renew at RenewEvery as their pattern
// does (watchdog-renew-ttl's pitfall is to ignore it).
var renewing = []string{"service-seconds", "watchdog-zombie-renewal", "watchdog-late-done"}

// TestVariantConfigIsItsPatterns: for the same Options, every variant
// refuses what its correct pattern refuses, naming the same field with the
// same rule, and accepts what it accepts. The variant's configuration is
// its pattern's, resolved by package locks.
func TestVariantConfigIsItsPatterns(t *testing.T) {
	for _, p := range pattern.All() {
		if !p.Broken {
			continue
		}
		c, ok := counterpart[p.Name]
		if !ok {
			t.Errorf("broken variant %q has no counterpart in this test", p.Name)
			continue
		}
		for _, bo := range badOptions {
			sameRefusal(t, p.Name, c, bo.name, bo.o)
		}
		sameRefusal(t, p.Name, c, "good", locks.Options{TTL: time.Second})
	}
	for _, v := range renewing {
		sameRefusal(t, v, counterpart[v], "renew at ttl", locks.Options{TTL: time.Second, RenewEvery: time.Second})
		sameRefusal(t, v, counterpart[v], "renew negative", locks.Options{TTL: time.Second, RenewEvery: -time.Second})
	}
}

// sameRefusal builds variant and its correct pattern with o and compares
// the option errors.
func sameRefusal(t *testing.T, variant, correct, what string, o locks.Options) {
	t.Helper()
	got, want := build(t, variant, o), build(t, correct, o)
	if got != want {
		t.Errorf("%s (%s): %s refuses with %q, %s with %q", what, fmtOpts(o), variant, got, correct, want)
	}
}

// build constructs the named pattern with o on clients that are never
// dialled, and returns the field and rule of its option error ("" if it
// accepted o).
func build(t *testing.T, name string, o locks.Options) string {
	t.Helper()
	p, err := pattern.Lookup(name)
	if err != nil {
		t.Fatalf("Lookup(%q) = %v", name, err)
	}
	nodes := make([]locks.Redis, p.Nodes)
	for i := range nodes {
		rc := redis.NewClient(&redis.Options{Addr: fmt.Sprintf("127.0.0.1:%d", i+1), ContextTimeoutEnabled: true})
		t.Cleanup(func() { _ = rc.Close() })
		nodes[i] = rc
	}
	_, err = p.New(nodes, "cfg", o)
	if err == nil {
		return ""
	}
	var oe *locks.OptionError
	if !errors.As(err, &oe) {
		t.Fatalf("%s: New(%s) = %v, want an *locks.OptionError", name, fmtOpts(o), err)
	}
	return oe.Field + ": " + oe.Rule
}

func fmtOpts(o locks.Options) string {
	return "TTL=" + o.TTL.String() + " RenewEvery=" + o.RenewEvery.String()
}

// copiedMachinery are the names of the machinery of package locks: the
// configuration (validity, retry, backoff), and the acquisition, release,
// renewal and quorum code the variants once re-implemented around their
// pitfall (SET NX attempts, watch loops, a quorum's fan-out, tally and
// release). A file that declares one re-implements what a variant must
// take from its pattern (pitfall.Pitfall) or from lockkit.Config.
var copiedMachinery = []string{"newBase", "validity", "backoff", "acquire", "retry", "minDrift",
	"setNX", "trySetNX", "watch", "newRenewingConf", "quorum", "newQuorum", "fanOut", "tally",
	"releaseAll", "entered", "extendScript", "fencedAcquireScript"}

// TestNoCopiedMachinery: no file of the package declares the options,
// validity, retry or backoff machinery of package locks again, nor the
// acquisition, renewal or quorum code of a pattern.
func TestNoCopiedMachinery(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range declared(af) {
			for _, c := range copiedMachinery {
				if name == c {
					t.Errorf("%s declares %s: build on the pattern (pitfall.Pitfall) or lockkit.Config instead", f, name)
				}
			}
		}
	}
}

// declared lists the names of a file's top-level funcs, methods, types,
// consts and vars.
func declared(f *ast.File) []string {
	var names []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			names = append(names, d.Name.Name)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					names = append(names, s.Name.Name)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						names = append(names, n.Name)
					}
				}
			}
		}
	}
	return names
}
