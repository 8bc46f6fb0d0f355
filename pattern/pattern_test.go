package pattern_test

import (
	"strings"
	"testing"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/pattern"
)

func newBasic(r locks.Redis, k string, o locks.Options) (locks.Locker, error) {
	return locks.NewBasic(r, k, o)
}

// TestValidate: a pattern that cannot run is refused, naming the field.
func TestValidate(t *testing.T) {
	ok := pattern.Pattern{Name: "mine", Nodes: 1, Claims: pattern.Claims{Mutex: true}, New: pattern.Single(newBasic)}
	tests := []struct {
		name string
		edit func(*pattern.Pattern)
		want string // "" for valid
	}{
		{"valid", func(*pattern.Pattern) {}, ""},
		{"no name", func(p *pattern.Pattern) { p.Name = "" }, "Name"},
		{"comma", func(p *pattern.Pattern) { p.Name = "a,b" }, "Name"},
		{"no constructor", func(p *pattern.Pattern) { p.New = nil }, "New is nil"},
		{"no nodes", func(p *pattern.Pattern) { p.Nodes = 0 }, "Nodes (0)"},
		{"negative holders", func(p *pattern.Pattern) { p.Claims.MaxHolders = -1 }, "MaxHolders (-1)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := ok
			tc.edit(&p)
			err := p.Validate()
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("Validate() = %v, want nil", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("Validate() = %v, want an error naming %q", err, tc.want)
			}
		})
	}
}

// TestRegisterLookup: a registered pattern is found by name and listed;
// a duplicate name panics.
func TestRegisterLookup(t *testing.T) {
	p := pattern.Pattern{Name: "registry-test-lock", Nodes: 1, Claims: pattern.Claims{Mutex: true}, New: pattern.Single(newBasic)}
	pattern.Register(p)
	got, err := pattern.Lookup(p.Name)
	if err != nil || got.Name != p.Name {
		t.Fatalf("Lookup(%q) = %v, %v", p.Name, got.Name, err)
	}
	var listed bool
	for _, q := range pattern.All() {
		listed = listed || q.Name == p.Name
	}
	if !listed {
		t.Errorf("All() does not list %s", p.Name)
	}
	defer func() {
		if recover() == nil {
			t.Error("a second Register of the same name did not panic")
		}
	}()
	pattern.Register(p)
}

// TestLookupUnknown: the error lists the known names.
func TestLookupUnknown(t *testing.T) {
	_, err := pattern.Lookup("no-such-lock")
	if err == nil || !strings.Contains(err.Error(), "basic") {
		t.Fatalf("Lookup(unknown) = %v, want an error listing basic", err)
	}
}

// TestSingleTakesAConstructor: Single takes a lock's own constructor, a
// one-node New that refuses other node counts, and a constructor's error
// comes back with a nil Locker (no typed nil hidden in the interface).
func TestSingleTakesAConstructor(t *testing.T) {
	n := pattern.Single(locks.NewBasic)
	if _, err := n(nil, "k", locks.Options{}); err == nil {
		t.Error("Single: no nodes accepted, want a refusal")
	}
	l, err := n([]locks.Redis{nil}, "k", locks.Options{TTL: -1})
	if err == nil {
		t.Fatal("NewBasic with TTL -1: no error")
	}
	if l != nil {
		t.Errorf("the failed constructor's Locker = %#v, want nil", l)
	}
}
