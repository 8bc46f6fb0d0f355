package archtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/locksim/locksim/childproc"
)

const module = "github.com/locksim/locksim"

// pkg is what the rules need of one package, as go list -json reports it.
type pkg struct {
	ImportPath string
	Name       string
	Imports    []string // direct, test files excluded
	Deps       []string // transitive, test files excluded
}

// rule forbids the packages under From to depend, directly or not, on any
// package under one of Not.
type rule struct {
	from string
	not  []string
	why  string
}

// rules are DESIGN.md's one-way arrows.
var rules = []rule{
	{"locks", []string{"sim", "bench", "linearizability", "cmd", "cli"}, "the patterns sit below everything that runs or judges them"},
	{"model", []string{"github.com/redis/go-redis", "github.com/alicebob/miniredis", "github.com/redis/rueidis"}, "models are pure: no Redis client"},
	{"model", []string{"locks", "sim", "bench", "linearizability", "cmd", "cli"}, "models sit below the checkers that use them"},
	{"sim", []string{"bench", "cmd", "cli"}, "the simulator does not depend on what measures or drives it"},
	{"linearizability", []string{"bench", "cmd", "cli"}, "the checkers do not depend on what measures or drives them"},
	{"sim/fault", []string{"github.com/redis/go-redis", "github.com/alicebob/miniredis", "github.com/yuin/gopher-lua", "sim/network", "sim/node", "sim/sched", "locks"},
		"faults are data: they name a direction (fault.Dir), they need no Redis client and no simulator machinery"},
	{"sim/oracle", []string{"sim/network", "sim/node", "sim/sched", "sim/scenario", "github.com/alicebob/miniredis", "github.com/yuin/gopher-lua"},
		"the oracles judge a run from its events and a read-only view (oracle.View): they know nothing of the world that runs it"},
}

// wirers are the public packages that, like a command, exist to wire:
// each is a command in library form (cli: locksim's commands, for a main
// of a user's own) and may import any internal package, because nothing
// internal leaks into its API: TestWirersAPINamesNoInternalPackage holds
// each of them to exported identifiers that name no internal package, so
// a user who imports one needs none.
var wirers = []string{"cli"}

// internalImports are the public packages that import an internal one
// today: a list to shrink (move the support they need next to what it
// supports), never to grow. Commands (package main) are not listed: no
// one imports them, and they exist to wire; nor are the wirers.
var internalImports = map[string][]string{
	// bench writes its CSV, JSON and plots, and benchcmd its outputs,
	// through safefile's atomic writes and its refusal to overwrite an
	// input: a user running the benchmarks needs no more of it than that.
	"bench":          {"internal/safefile"},
	"bench/benchcmd": {"internal/safefile"},
	// The bridge: package locks lends what is not its users' API (the
	// setter of a deliberate mistake, the kit's internals, the lock code
	// as built) through internal/lockbridge, and reads a mistake's steps
	// from internal/pitfall, so that `go doc locks` shows a lock library
	// and nothing that builds, breaks or fingerprints it. Neither names a
	// type of the module outside clock in its API, and the module builds
	// them with locks for any user who imports it.
	"locks":         {"internal/lockbridge", "internal/pitfall"},
	"locks/lockkit": {"internal/lockbridge"},
	"realmode":      {"internal/lockbridge"},
}

// TestImportsPointOneWay lists every package of the module and fails on
// each arrow of DESIGN.md that is broken.
func TestImportsPointOneWay(t *testing.T) {
	pkgs := listModule(t)
	if len(pkgs) < 20 {
		t.Fatalf("go list found only %d packages; the listing is wrong", len(pkgs))
	}
	for _, v := range violations(pkgs, rules, internalImports) {
		t.Error(v)
	}
}

// TestInternalImportsListIsCurrent: every exception in internalImports is
// still needed, so that the list only shrinks.
func TestInternalImportsListIsCurrent(t *testing.T) {
	for _, v := range stale(listModule(t), internalImports) {
		t.Error(v)
	}
}

// stale returns one line per exception of allowed that its package no
// longer imports.
func stale(pkgs []pkg, allowed map[string][]string) []string {
	imports := map[string][]string{}
	for _, p := range pkgs {
		imports[strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")] = p.Imports
	}
	var out []string
	for _, rel := range slices.Sorted(maps.Keys(allowed)) {
		for _, in := range allowed[rel] {
			if !slices.Contains(imports[rel], module+"/"+in) {
				out = append(out, fmt.Sprintf("internalImports lists %s importing %s, which it no longer does: drop the exception", rel, in))
			}
		}
	}
	return out
}

// TestRulesCatchAWrongImport proves the checker on a fixture: each wrong
// arrow added to a correct listing is reported, and the correct listing
// is not.
func TestRulesCatchAWrongImport(t *testing.T) {
	good := []pkg{
		{ImportPath: module + "/locks", Name: "locks", Deps: []string{module + "/clock", "context"}},
		{ImportPath: module + "/model", Name: "model", Deps: []string{"github.com/anishathalye/porcupine"}},
		{ImportPath: module + "/sim", Name: "sim", Deps: []string{module + "/locks", module + "/model"}},
		{ImportPath: module + "/bench", Name: "bench", Imports: []string{module + "/internal/safefile"}},
		{ImportPath: module + "/cmd/locksim", Name: "main", Imports: []string{module + "/cli"}},
		{ImportPath: module + "/cli", Name: "cli", Imports: []string{module + "/internal/gate"}},
	}
	if v := violations(good, rules, internalImports); len(v) != 0 {
		t.Fatalf("a correct listing reported %v", v)
	}
	if v := stale(good, map[string][]string{"bench": {"internal/safefile"}, "locks/lockstest": {"internal/redistest"}}); len(v) != 1 || !strings.Contains(v[0], "locks/lockstest importing internal/redistest") {
		t.Errorf("stale(an exception no longer used) = %q, want it named", v)
	}
	wrong := []struct {
		name string
		p    pkg
		want string
	}{
		{"locks imports sim", pkg{ImportPath: module + "/locks", Name: "locks", Deps: []string{module + "/sim/sched"}}, "locks depends on " + module + "/sim/sched"},
		{"model imports go-redis", pkg{ImportPath: module + "/model", Name: "model", Deps: []string{"github.com/redis/go-redis/v9"}}, "model depends on github.com/redis/go-redis/v9"},
		{"sim imports bench", pkg{ImportPath: module + "/sim/node", Name: "node", Deps: []string{module + "/bench"}}, "sim/node depends on " + module + "/bench"},
		{"sim/fault imports the network", pkg{ImportPath: module + "/sim/fault", Name: "fault", Deps: []string{module + "/sim/network"}}, "sim/fault depends on " + module + "/sim/network"},
		{"sim/fault imports go-redis", pkg{ImportPath: module + "/sim/fault", Name: "fault", Deps: []string{"github.com/redis/go-redis/v9"}}, "sim/fault depends on github.com/redis/go-redis/v9"},
		{"sim/oracle imports the scheduler", pkg{ImportPath: module + "/sim/oracle", Name: "oracle", Deps: []string{module + "/sim/sched"}}, "sim/oracle depends on " + module + "/sim/sched"},
		{"sim/oracle imports the nodes", pkg{ImportPath: module + "/sim/oracle", Name: "oracle", Deps: []string{module + "/sim/node"}}, "sim/oracle depends on " + module + "/sim/node"},
		{"sim imports cli", pkg{ImportPath: module + "/sim", Name: "sim", Deps: []string{module + "/cli"}}, "sim depends on " + module + "/cli"},
		{"a package under cli imports internal", pkg{ImportPath: module + "/cli/sub", Name: "sub", Imports: []string{module + "/internal/gate"}}, "cli/sub imports " + module + "/internal/gate"},
		{"public imports internal", pkg{ImportPath: module + "/pattern", Name: "pattern", Imports: []string{module + "/internal/broken"}}, "pattern imports " + module + "/internal/broken"},
		{"listed package imports one more", pkg{ImportPath: module + "/bench", Name: "bench", Imports: []string{module + "/internal/safefile", module + "/internal/gate"}}, "bench imports " + module + "/internal/gate"},
	}
	for _, w := range wrong {
		t.Run(w.name, func(t *testing.T) {
			v := violations(append(slices.Clone(good), w.p), rules, internalImports)
			if !slices.ContainsFunc(v, func(s string) bool { return strings.HasPrefix(s, w.want) }) {
				t.Errorf("violations = %q, want one starting %q", v, w.want)
			}
		})
	}
}

// violations checks pkgs against the rules and the internal-import list.
func violations(pkgs []pkg, rules []rule, allowed map[string][]string) []string {
	var out []string
	for _, p := range pkgs {
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		for _, r := range rules {
			if under(rel, r.from) {
				out = append(out, forbiddenDeps(rel, p.Deps, r)...)
			}
		}
		if !under(rel, "internal") && p.Name != "main" && !slices.Contains(wirers, rel) {
			out = append(out, internalOf(rel, p.Imports, allowed[rel])...)
		}
	}
	return out
}

// forbiddenDeps returns one line per dependency of rel that r forbids.
func forbiddenDeps(rel string, deps []string, r rule) []string {
	var out []string
	for _, d := range deps {
		for _, n := range r.not {
			target := n
			if !strings.Contains(n, ".") { // a package of this module
				target = module + "/" + n
			}
			if d == target || strings.HasPrefix(d, target+"/") {
				out = append(out, fmt.Sprintf("%s depends on %s (%s)", rel, d, r.why))
			}
		}
	}
	return out
}

// internalOf returns one line per internal package rel imports that is not
// in allowed.
func internalOf(rel string, imports, allowed []string) []string {
	var out []string
	for _, imp := range imports {
		in := strings.TrimPrefix(imp, module+"/")
		if in != imp && under(in, "internal") && !slices.Contains(allowed, in) {
			out = append(out, fmt.Sprintf("%s imports %s (a public package must not need an internal one: a user could not build it)", rel, imp))
		}
	}
	return out
}

// under reports whether the module-relative path rel is dir or below it.
func under(rel, dir string) bool { return rel == dir || strings.HasPrefix(rel, dir+"/") }

// listModule runs go list -json over the whole module.
func listModule(t *testing.T) []pkg {
	return goList[pkg](t, "ImportPath,Name,Imports,Deps")
}

// goList runs go list -json=fields over the whole module and decodes each
// package it lists into a T.
func goList[T any](t *testing.T, fields string) []T {
	t.Helper()
	cmd := exec.Command("go", "list", "-json="+fields, module+"/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := childproc.Output(cmd)
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	var pkgs []T
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p T
		err := dec.Decode(&p)
		if errors.Is(err, io.EOF) {
			return pkgs
		}
		if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
}
