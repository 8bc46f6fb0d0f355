package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestListNamesEveryPattern(t *testing.T) {
	out, _, err := runCLI(t, "list")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"basic", "reentrant", "watchdog", "redlock", "service", "fenced", "TRIGGER", "after=D", "on=[cN:]write"} {
		if !strings.Contains(out, name) {
			t.Errorf("list output lacks pattern %q:\n%s", name, out)
		}
	}
	js, _, err := runCLI(t, "list", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var l listing
	if err := json.Unmarshal([]byte(js), &l); err != nil {
		t.Fatalf("list --json is not JSON: %v\n%s", err, js)
	}
	if len(l.Patterns) < 6 {
		t.Errorf("list --json: %d patterns, want at least 6", len(l.Patterns))
	}
	for _, b := range l.Broken {
		if b.Pitfall == "" {
			t.Errorf("broken variant %s has no pitfall", b.Name)
		}
	}
}
