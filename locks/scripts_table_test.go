package locks

import (
	"io/fs"
	"strings"
	"testing"
)

// TestScriptTableCoversScriptsDir: every file of scripts/ is a row of
// scriptTable or a library a row runs with, and every row names a file, so
// no script is run that Scripts() (and the simulator) would not see.
func TestScriptTableCoversScriptsDir(t *testing.T) {
	named := map[string]bool{}
	for _, s := range scriptTable {
		if named[s.name] {
			t.Errorf("scriptTable has %q twice", s.name)
		}
		named[s.name] = true
		for _, lib := range s.libs {
			named[lib] = true
		}
	}
	files, err := fs.Glob(scriptFiles, "scripts/*.lua")
	if err != nil {
		t.Fatal(err)
	}
	onDisk := map[string]bool{}
	for _, f := range files {
		name := strings.TrimSuffix(strings.TrimPrefix(f, "scripts/"), ".lua")
		onDisk[name] = true
		if !named[name] {
			t.Errorf("scripts/%s.lua is neither a row of scriptTable nor a library of one", name)
		}
	}
	for name := range named {
		if !onDisk[name] {
			t.Errorf("scriptTable names %q, which has no file scripts/%s.lua", name, name)
		}
	}
	if got, want := len(Scripts()), len(scriptTable); got != want {
		t.Errorf("Scripts() has %d scripts, want one per row of scriptTable (%d)", got, want)
	}
}
