package explore

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/locksim/locksim/sim/scenario"
)

// named holds the scenarios registered beside the built-ins (the gate's
// own), so that a replay command names them as it names a built-in and
// works from any directory.
var named struct {
	mu  sync.Mutex
	all map[string]Scenario
}

// RegisterNamed makes sc selectable by its name, as a built-in is; its Arg
// becomes that name. It panics on a name already taken (a programming
// error).
func RegisterNamed(sc Scenario) {
	named.mu.Lock()
	defer named.mu.Unlock()
	if _, err := scenario.Lookup(sc.Name, 1); err == nil || named.all[sc.Name].make != nil {
		panic("explore: scenario " + sc.Name + " registered twice, or as a built-in")
	}
	if named.all == nil {
		named.all = map[string]Scenario{}
	}
	sc.Arg = sc.Name
	named.all[sc.Name] = sc
}

// Named returns the built-in or registered scenario named name; the error
// lists both.
func Named(name string) (Scenario, error) {
	sc, err := Builtin(name)
	if err == nil {
		return sc, nil
	}
	named.mu.Lock()
	defer named.mu.Unlock()
	if own, ok := named.all[name]; ok {
		return own, nil
	}
	var names []string
	for n := range named.all {
		names = append(names, n)
	}
	if len(names) == 0 {
		return Scenario{}, err
	}
	sort.Strings(names)
	return Scenario{}, fmt.Errorf("%w; nor one of the gate's own (%s)", err, strings.Join(names, ", "))
}

// Resolve returns the scenario for a pattern of nodes nodes, validated.
func (s Scenario) Resolve(nodes int) (scenario.Scenario, error) {
	if s.make == nil {
		return scenario.Scenario{}, fmt.Errorf("scenario %q was not made by Builtin, FromFile or Parsed", s.Name)
	}
	sc, err := s.make(nodes)
	if err == nil {
		sc.Name = s.Name
	}
	return sc, err
}
