package scripts

import (
	"io/fs"
	"strings"
	"testing"
)

// TestTableCoversTheFiles: every .lua file here is a row of table or a
// library a row runs with, and every row names a file, so no script is
// run that All() (and the simulator) would not see.
func TestTableCoversTheFiles(t *testing.T) {
	named := map[string]bool{}
	for _, s := range table {
		if named[s.name] {
			t.Errorf("table has %q twice", s.name)
		}
		named[s.name] = true
		for _, lib := range s.libs {
			named[lib] = true
		}
	}
	files, err := fs.Glob(files, "*.lua")
	if err != nil {
		t.Fatal(err)
	}
	onDisk := map[string]bool{}
	for _, f := range files {
		name := strings.TrimSuffix(f, ".lua")
		onDisk[name] = true
		if !named[name] {
			t.Errorf("%s.lua is neither a row of table nor a library of one", name)
		}
	}
	for name := range named {
		if !onDisk[name] {
			t.Errorf("table names %q, which has no file %s.lua", name, name)
		}
	}
	if got, want := len(All()), len(table); got != want {
		t.Errorf("All() has %d scripts, want one per row of table (%d)", got, want)
	}
}
