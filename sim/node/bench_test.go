package node

import (
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/locksim/locksim/locks/scripts"
	"github.com/locksim/locksim/sim/sched"
)

// BenchmarkAcquireRelease runs the fenced acquire script and the release
// script by SHA on one node, per backend: two script calls per iteration.
func BenchmarkAcquireRelease(b *testing.B) {
	for _, be := range []Backend{BackendNative, BackendMini} {
		b.Run(string(be), func(b *testing.B) {
			n, err := New(Config{Name: "n1", Backend: be}, sched.New())
			if err != nil {
				b.Fatal(err)
			}
			defer n.Close()
			acq, rel := scripts.All()["fenced_acquire"], scripts.All()["release"]
			n.Exec([]string{"SCRIPT", "LOAD", acq})
			n.Exec([]string{"SCRIPT", "LOAD", rel})
			a, r := SHA1(acq), SHA1(rel)
			for b.Loop() {
				if x := n.Exec([]string{"EVALSHA", a, "2", "{r}:lock", "{r}:fence", "tok", "100"}); x.IsError() {
					b.Fatal(x)
				}
				if x := n.Exec([]string{"EVALSHA", r, "1", "{r}:lock", "tok"}); x.Int != 1 {
					b.Fatal(x)
				}
			}
		})
	}
}

// BenchmarkScripts runs one call of each script of scripts.All() (with
// arguments drawn as the differential tests draw them, the same sequence
// for every engine) on a native node by its twin or guarded twin where it
// has one ("twin": a guarded twin's declined calls run on the engine), on the node's Lua engine ("lua") and on miniredis ("mini"):
// what a twin still saves over the engine, and the engine over miniredis.
func BenchmarkScripts(b *testing.B) {
	for _, name := range scriptNamesSorted() {
		engines := []string{"lua", "mini"}
		_, twin := nativeByName[name]
		_, guarded := guardedByName[name]
		if twin || guarded {
			engines = append([]string{"twin"}, engines...)
		}
		for _, eng := range engines {
			b.Run(name+"/"+eng, func(b *testing.B) { benchScript(b, name, eng) })
		}
	}
}

func benchScript(b *testing.B, name, eng string) {
	be := BackendNative
	if eng == "mini" {
		be = BackendMini
	}
	n, err := New(Config{Name: "n1", Backend: be}, sched.New())
	if err != nil {
		b.Fatal(err)
	}
	defer n.Close()
	n.noTwins = eng == "lua"
	src := scripts.All()[name]
	sha := n.Exec([]string{"SCRIPT", "LOAD", src}).Str
	g := &gen{r: rand.New(rand.NewPCG(1, 2))}
	calls := make([][]string, 64)
	for i := range calls {
		keys, argv := scriptSpecs[name](g)
		calls[i] = append(append([]string{"EVALSHA", sha, strconv.Itoa(len(keys))}, keys...), argv...)
	}
	i := 0
	for b.Loop() {
		n.Exec(calls[i%len(calls)])
		i++
	}
	if eng != "mini" && n.Stats().Backend != string(BackendNative) {
		b.Fatalf("%s moved the node to miniredis", name)
	}
}

// BenchmarkParseSet parses the options of the SET every basic-lock
// acquisition sends.
func BenchmarkParseSet(b *testing.B) {
	args := []string{"SET", "lock", "c1-1-00f372", "PX", "100", "NX"}
	for b.Loop() {
		if _, _, ok := parseSet(args); !ok {
			b.Fatal("parseSet refused a valid SET")
		}
	}
}

// BenchmarkGuardedTwins runs the scripts that have a guarded twin with
// calls shaped as their patterns make them (patternCall), by the twin
// ("twin") and on the Lua engine ("lua"), with node time moving 10ms a
// call so that members expire and are pruned.
func BenchmarkGuardedTwins(b *testing.B) {
	for _, name := range slices.Sorted(maps.Keys(guardedByName)) {
		for _, eng := range []string{"twin", "lua"} {
			b.Run(name+"/"+eng, func(b *testing.B) { benchGuarded(b, name, eng) })
		}
	}
}

func benchGuarded(b *testing.B, name, eng string) {
	tl := sched.New()
	n, err := New(Config{Name: "n1", Backend: BackendNative}, tl)
	if err != nil {
		b.Fatal(err)
	}
	defer n.Close()
	n.noTwins = eng == "lua"
	sha := n.Exec([]string{"SCRIPT", "LOAD", scripts.All()[name]}).Str
	g := &gen{r: rand.New(rand.NewPCG(1, 2)), timed: true}
	var calls [][]string
	for len(calls) < 256 {
		if s, keys, argv := patternCall(g); s == name {
			calls = append(calls, append(append([]string{"EVALSHA", sha, strconv.Itoa(len(keys))}, keys...), argv...))
		}
	}
	i := 0
	for b.Loop() {
		n.Exec(calls[i%len(calls)])
		n.clk.Jump(10 * time.Millisecond)
		i++
	}
}
