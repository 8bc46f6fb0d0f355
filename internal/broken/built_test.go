package broken

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/pattern"
)

// ownCode are the broken variants that are not their pattern plus one
// step but the seed articles' own implementation (see the package doc).
var ownCode = []string{"fair-clock-queue", "rwlock-shared-count"}

// TestEveryVariantIsItsPatternPlusOneStep: every broken variant of the
// catalog is in variants (or is the seeds' own code), is built by the
// registered constructor of a correct pattern — the Locker it returns is
// of that pattern's type — and differs from it by exactly the Pitfall
// fields (or the one option) its entry names.
func TestEveryVariantIsItsPatternPlusOneStep(t *testing.T) {
	byName := map[string]variant{}
	for _, v := range variants {
		byName[v.name] = v
	}
	for _, p := range pattern.All() {
		if !p.Broken || slices.Contains(ownCode, p.Name) {
			continue
		}
		v, ok := byName[p.Name]
		if !ok {
			t.Errorf("broken variant %q is not built on a pattern (add it to variants or to ownCode)", p.Name)
			continue
		}
		base := mustLookup(v.of)
		if base.Broken {
			t.Errorf("%s: built on %q, which is itself broken", v.name, v.of)
		}
		if got, want := lockerType(t, p), lockerType(t, base); got != want {
			t.Errorf("%s: New built a %s, its pattern %s builds a %s", v.name, got, v.of, want)
		}
		if got, want := changed(v), slices.Sorted(slices.Values(v.steps)); !slices.Equal(got, want) {
			t.Errorf("%s: changes %v of %s, its entry names %v", v.name, got, v.of, v.steps)
		}
		if len(v.steps) != 1 && v.name != "redlock-novalidity" {
			t.Errorf("%s: changes %d steps of %s (%v), want one", v.name, len(v.steps), v.of, v.steps)
		}
	}
}

// changed lists what v changes, sorted: the non-zero fields of its
// Pitfall, or "Options.F" for each field F its option change
// sets differently from the Options it is given.
func changed(v variant) []string {
	if v.options != nil {
		return optionChanges(v.options)
	}
	var out []string
	pv := reflect.ValueOf(v.pitfall)
	for i := range pv.NumField() {
		if !pv.Field(i).IsZero() {
			out = append(out, pv.Type().Field(i).Name)
		}
	}
	slices.Sort(out)
	return out
}

// optionChanges applies change to plain Options and names the exported
// fields it altered.
func optionChanges(change func(locks.Options) locks.Options) []string {
	in := locks.Options{TTL: time.Second}
	got := reflect.ValueOf(change(in))
	want := reflect.ValueOf(in)
	var out []string
	for i := range got.NumField() {
		f := got.Type().Field(i)
		if f.IsExported() && !reflect.DeepEqual(got.Field(i).Interface(), want.Field(i).Interface()) {
			out = append(out, "Options."+f.Name)
		}
	}
	slices.Sort(out)
	return out
}

// lockerType builds p on clients that are never dialled and names the
// type of the Locker it returns.
func lockerType(t *testing.T, p pattern.Pattern) string {
	t.Helper()
	nodes := make([]locks.Redis, p.Nodes)
	for i := range nodes {
		rc := redis.NewClient(&redis.Options{Addr: fmt.Sprintf("127.0.0.1:%d", i+1), ContextTimeoutEnabled: true})
		t.Cleanup(func() { _ = rc.Close() })
		nodes[i] = rc
	}
	l, err := p.New(nodes, "built", locks.Options{TTL: time.Second})
	if err != nil {
		t.Fatalf("%s: New = %v", p.Name, err)
	}
	return fmt.Sprintf("%T", l)
}
