package pattern_test

import (
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks/scripts"
	"github.com/locksim/locksim/pattern"
)

func TestNameScript(t *testing.T) {
	s := redis.NewScript("return 'name-script-test'")
	if got := pattern.ScriptName(s.Hash()); got != "" {
		t.Fatalf("ScriptName before NameScript = %q, want empty", got)
	}
	if got := pattern.NameScript("name_test.acquire-1", s); got != s {
		t.Fatalf("NameScript returned %p, want the script it was given (%p)", got, s)
	}
	if got := pattern.ScriptName(s.Hash()); got != "name_test.acquire-1" {
		t.Errorf("ScriptName = %q, want name_test.acquire-1", got)
	}
	pattern.NameScript("name_test.acquire-1", s) // the same again is allowed
	src := "return 'name-script-test by source'"
	pattern.NameScriptSource("name_test_src", src)
	if got := pattern.ScriptName(redis.NewScript(src).Hash()); got != "name_test_src" {
		t.Errorf("ScriptName of a source named by NameScriptSource = %q, want name_test_src", got)
	}
}

func TestNameScriptRefuses(t *testing.T) {
	taken := pattern.NameScript("name_test_taken", redis.NewScript("return 'taken'"))
	cases := []struct {
		name, desc string
		script     *redis.Script
		want       string
	}{
		{"", "empty name", redis.NewScript("return 1"), "must be 1 to 64 bytes"},
		{strings.Repeat("x", 65), "name too long", redis.NewScript("return 1"), "must be 1 to 64 bytes"},
		{"my lock", "space", redis.NewScript("return 1"), "letters, digits and _ - . only"},
		{"a:b", "colon", redis.NewScript("return 1"), "letters, digits and _ - . only"},
		{"release", "a built-in's name", redis.NewScript("return 1"), "one of the patterns' own"},
		{"name_test_taken", "a name given to another script", redis.NewScript("return 2"), "already names another script"},
		{"name_test_other", "a script named otherwise", taken, `already named "name_test_taken"`},
		{"name_test_nil", "nil script", nil, "nil script"},
	}
	for _, c := range cases {
		t.Run(c.desc, func(t *testing.T) {
			defer func() {
				r := recover()
				if r == nil || !strings.Contains(r.(string), c.want) {
					t.Errorf("NameScript(%q) panicked with %v, want a panic containing %q", c.name, r, c.want)
				}
			}()
			pattern.NameScript(c.name, c.script)
		})
	}
	if got := pattern.ScriptName(redis.NewScript(scripts.All()["release"]).Hash()); got != "" {
		t.Errorf("ScriptName of the built-in release = %q, want empty (the simulator names built-ins itself)", got)
	}
}
