package archtest

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoBlankImportOfTheVariants: the broken variants join a catalog by
// an explicit call (broken.Extend, broken.Catalog), never by importing
// their package for its side effects.
func TestNoBlankImportOfTheVariants(t *testing.T) {
	for _, v := range blankImports(t, filepath.Join("..", ".."), module+"/internal/broken") {
		t.Error(v)
	}
}

// TestBlankImportRuleCatchesOne proves the rule on a fixture.
func TestBlankImportRuleCatchesOne(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.go"), "package a\n\nimport _ \""+module+"/internal/broken\"\n")
	write(t, filepath.Join(dir, "b.go"), "package a\n\nimport \""+module+"/internal/broken\"\n\nvar _ = broken.Extend\n")
	got := blankImports(t, dir, module+"/internal/broken")
	if len(got) != 1 || !strings.Contains(got[0], "a.go") {
		t.Errorf("blankImports = %q, want a.go alone", got)
	}
}

// blankImports returns one line per Go file under root (bench/refs, a
// module of its own, left out) that imports path for its side effects.
func blankImports(t *testing.T, root, path string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "refs" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && p != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, src, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, im := range f.Imports {
			if im.Name != nil && im.Name.Name == "_" && strings.Trim(im.Path.Value, `"`) == path {
				out = append(out, p+": imports "+path+" for its side effects; call its Extend or Catalog instead")
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
