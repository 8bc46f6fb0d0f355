package realmode

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/locksim/locksim/childproc"
	"github.com/locksim/locksim/pattern"
)

// describeEnv, set to a pattern name, makes ClientMain print that
// pattern's description (name, node count, claims) as JSON and exit: how
// the coordinator learns about a pattern only a client binary knows (a
// library adapter).
const describeEnv = "LOCKSIM_REAL_DESCRIBE"

// description is what a client binary says of one of its patterns.
type description struct {
	Name    string         `json:"name"`
	Summary string         `json:"summary"`
	Nodes   int            `json:"nodes"`
	Claims  pattern.Claims `json:"claims"`
}

func describe(w io.Writer, extra []Subject, name string) int {
	p, err := findSubject(extra, name)
	if err != nil {
		fmt.Fprintln(os.Stderr, "realmode: client:", err)
		return 2
	}
	d := description{Name: p.Name, Summary: p.Summary, Nodes: p.Nodes, Claims: p.Claims}
	if err := json.NewEncoder(w).Encode(d); err != nil {
		return 1
	}
	return 0
}

// Describe asks the client program argv (with env) for the pattern
// named name, and returns it as the coordinator needs it: its name,
// summary, node count and claims (no constructor: the pattern is built
// inside the client processes).
func Describe(argv, env []string, name string) (pattern.Pattern, error) {
	if len(argv) == 0 {
		return pattern.Pattern{}, fmt.Errorf("realmode: no client command to ask for pattern %q", name)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(append(os.Environ(), env...), describeEnv+"="+name)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := childproc.Output(cmd)
	if err != nil {
		return pattern.Pattern{}, fmt.Errorf("realmode: client %s: pattern %q: %w: %s", argv[0], name, err, strings.TrimSpace(stderr.String()))
	}
	var d description
	if err := json.Unmarshal(out, &d); err != nil {
		return pattern.Pattern{}, fmt.Errorf("realmode: client %s: describe %q: %w", argv[0], name, err)
	}
	return pattern.Pattern{Name: d.Name, Summary: d.Summary, Nodes: d.Nodes, Claims: d.Claims}, nil
}
