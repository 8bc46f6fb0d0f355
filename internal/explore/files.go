package explore

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/locksim/locksim/sim/scenario"
)

// ScenarioFiles parses every file in dir of fsys as a scenario, sorted by
// name: each must be named after its scenario line (file gc-pause.txt,
// line `scenario gc-pause`), so that the name a replay command gives finds
// the file. Errors name the file as repoDir/file, where it lives in the
// repository. The gate's and the report's embedded scenarios are read
// this way.
func ScenarioFiles(fsys fs.FS, dir, repoDir string) ([]Scenario, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	var out []Scenario
	for _, e := range entries {
		data, err := fs.ReadFile(fsys, path.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		where := path.Join(repoDir, e.Name())
		sc, err := scenario.Parse(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		if want := strings.TrimSuffix(e.Name(), ".txt"); sc.Name != want {
			return nil, fmt.Errorf("%s: scenario %q, want it named after the file (%q)", where, sc.Name, want)
		}
		out = append(out, Parsed(where, sc, data))
	}
	return out, nil
}

// ScenarioFile says whether a --scenario value names a file (false for a
// built-in's or a registered scenario's name), or what is wrong with it:
// no such file, a directory.
func ScenarioFile(arg string) (bool, error) {
	if _, err := Named(arg); err == nil {
		return false, nil
	}
	st, err := os.Stat(arg)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, fmt.Errorf("no such file, and no built-in scenario of that name (built-in: %s)", builtinNames())
	case err != nil:
		return false, err
	case st.IsDir():
		return false, errors.New("a directory, not a scenario file")
	}
	return true, nil
}

func builtinNames() string {
	var names []string
	for _, b := range scenario.Builtins() {
		names = append(names, b.Name)
	}
	return strings.Join(names, ", ")
}
