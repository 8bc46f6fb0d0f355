package scenario

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/locksim/locksim/sim/fault"
)

var ignoreLines = cmpopts.IgnoreUnexported(Scenario{})

func TestBuiltinsRoundTrip(t *testing.T) {
	for _, b := range Builtins() {
		for _, nodes := range []int{1, 3, 5} {
			s, err := b.Scenario(nodes)
			if err != nil {
				t.Fatalf("%s with %d nodes: %v", b.Name, nodes, err)
			}
			text := Format(s)
			back, err := ParseString(text)
			if err != nil {
				t.Fatalf("%s: Parse(Format) = %v\n%s", b.Name, err, text)
			}
			if d := cmp.Diff(s, back, ignoreLines); d != "" {
				t.Errorf("%s with %d nodes: round trip (-want +got):\n%s\n%s", b.Name, nodes, d, text)
			}
		}
	}
}

func TestParseExample(t *testing.T) {
	s, err := ParseString(`
# a comment
scenario demo
summary two clients, one pause
start nodes=1 clients=2 ttl=100ms duration=2s   # trailing comment
net latency=1ms jitter=0s tail=0.25% loss=1%
pause c1 on=write n=2 for=150ms
failover n1 on=c2:acquired
slow c2 on=acquired after=30ms for=5ms
replicas delay=50ms
slowlink c1,c2|n1 at=10ms for=20ms by=150ms dir=reply
jump n1 at=1s by=-2s
drift c2 at=0s rate=+2.5%
`)
	if err != nil {
		t.Fatal(err)
	}
	want := Default()
	want.Name, want.Summary, want.Nodes, want.Duration = "demo", "two clients, one pause", 1, 2*time.Second
	want.Net.Latency.Base, want.Net.Latency.Jitter, want.Net.Latency.TailPPM, want.Net.LossPPM = time.Millisecond, 0, 2500, 10_000
	want.Replicas = 50 * time.Millisecond
	want.Faults = []fault.Fault{
		{Kind: fault.Pause, Target: "c1", When: fault.When{Client: "c1", Point: fault.Write, N: 2}, For: 150 * time.Millisecond},
		{Kind: fault.Failover, Target: "n1", When: fault.When{Client: "c2", Point: fault.Acquired, N: 1}},
		{Kind: fault.Slow, Target: "c2", When: fault.When{Client: "c2", Point: fault.Acquired, N: 1, After: 30 * time.Millisecond}, For: 5 * time.Millisecond},
		{Kind: fault.SlowLink, A: []string{"c1", "c2"}, B: []string{"n1"}, When: fault.When{At: 10 * time.Millisecond},
			For: 20 * time.Millisecond, By: 150 * time.Millisecond, Dir: fault.Reply},
		{Kind: fault.Jump, Target: "n1", When: fault.When{At: time.Second}, By: -2 * time.Second},
		{Kind: fault.Drift, Target: "c2", PPM: 25_000},
	}
	if d := cmp.Diff(want, s, ignoreLines); d != "" {
		t.Errorf("Parse (-want +got):\n%s", d)
	}
}

func TestParseErrorsNameLineAndField(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"pause c1 for=150ms", "line 1: no start line"},
		{"start clients=2\npause c1 at=1s for=15x", `line 2: pause: field for: bad duration "15x"`},
		{"start clients=2\n\npause c1 fro=1s", `line 3: pause: unknown field "fro"`},
		{"start clients=2\npause c3 for=1s", "line 2: pause: field target: c3, but the run has 2 clients"},
		{"start nodes=1\ncrash n2 at=1s", "line 2: crash: field target: n2, but the run has 1 nodes"},
		{"start\nstart", "line 2: start: given twice (first on line 1)"},
		{"start\npuase c1", "line 2: puase: unknown directive"},
		{"start ttl=0s", "line 1: start: field ttl: locks: TTL (0s) must be at least 1ms"},
		{"start\npause c1 on=lunch for=1s", `line 2: pause: field on: unknown point "lunch"`},
		{"start\ncrash n1 on=acquired", `line 2: crash: field on: "acquired": name the client`},
		{"start nodes=1\nfailover n1 at=0s", "line 2: failover: failover needs replicas"},
		{"start\npartition c1 at=0s", `line 2: partition: field sides: "c1", want A|B`},
		{"start nodes=1\npartition c1|c2 at=0s", "line 2: partition: field sides: c1|c2 joins no client to a node or db"},
		{"start\ndrift c1 rate=5", `line 2: drift: field rate: bad rate "5"`},
		{"start\nloss c1|db rate=0%", "line 2: loss: field rate: 0ppm, want (0, 100%]"},
		{"start\npause c1 at=1s on=write for=1s", "line 2: pause: field at: give at= or on=, not both"},
		{"start\npause c1 at=1s after=5ms for=1s", "line 2: pause: field after: only with on="},
		{"start\npause c1 on=write after=-5ms for=1s", "line 2: pause: field after: -5ms is negative"},
		{"start\nworkload work=10ms jitter=20ms", "workload: field jitter: 20ms is more than work (10ms)"},
		{"start\nslowlink c1|db by=1ms dir=up", `line 2: slowlink: field dir: "up"`},
		{"start\nworkload extend-every=-1ms", "workload: field extend-every: -1ms is negative"},
		{"start\nworkload extend-on=lunch", `field extend-on: "lunch", want work or write`},
		{"start\nworkload extend-on=write", "workload: field extend-on: write, but extend-every is 0"},
		{"start\nreplicas delay=exp(5ms", `line 2: replicas: field delay: "exp(5ms": missing ')'`},
		{"start\nreplicas delay=gauss(5ms)", `line 2: replicas: field delay: bad delay "gauss(5ms)"`},
		{"start\nreplicas delay=5ms n=10", "replicas: field n: 10, want 1 to 9"},
		{"start\nreplicas n=2", "replicas: field delay: missing"},
		{"start\npause c* on=c1:write for=1s", "line 2: pause: field on: a schedule"},
		{"start\npause c1 every=exp(1s for=1s", `line 2: pause: field every: "exp(1s": missing ')'`},
		{"start\npause c1 every=uniform(±1s) for=1s", `line 2: pause: field every: "uniform(±1s)": a gap is not signed`},
		{"start\npause c1 every=1s for=uniform(±1s)", "line 2: pause: field for: uniform(±…) is for signed values"},
		{"start\npause c1 every=-1s for=1s", "line 2: pause: field every: -1s, want a positive gap"},
		{"start\ndrift c* rate=exp(1%)", "line 2: drift: field rate: exp(…) would draw rates without bound"},
		{"start\ndrift c* rate=uniform(±95%)", "line 2: drift: field rate: -950000ppm outside"},
		{"start\npause n* every=1s for=1s", "line 2: pause: field target: n*: pause takes a client"},
		{"start\ncrash n1 every=1s", "line 2: crash: field for: a repeated crash needs a positive for="},
		{"start\nloss c1|n1 every=1s for=1s rate=uniform(10%)", "line 2: loss: field rate: a loss rate is not drawn"},
		{"start\njump c1 every=1s by=uniform(±-1s)", "line 2: jump: field by: \"uniform(±-1s)\": uniform(±D) takes an unsigned D"},
		{"start nodes=1\nsplitbrain n1 at=1s old=c1", "line 2: splitbrain: splitbrain needs replicas"},
		{"start nodes=1\nreplicas delay=5ms\nsplitbrain n1 at=1s", "line 3: splitbrain: field old: missing"},
		{"start nodes=1 clients=2\nreplicas delay=5ms\nsplitbrain n1 at=1s old=c3", "line 3: splitbrain: field old: c3, but the run has 2 clients"},
		{"start nodes=1 clients=2\nreplicas delay=5ms\nsplitbrain n1 at=1s old=c1,c1", "line 3: splitbrain: field old: c1 given twice"},
		{"start\ncrash n1 at=1s persist=sometimes", `line 2: crash: field persist: "sometimes", want yes (or always), everysec or no`},
	} {
		_, err := ParseString(tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) = %v, want an error containing %q", tc.text, err, tc.want)
		}
	}
}

func TestResolveChecksNodeNames(t *testing.T) {
	s, err := ParseString("start\ncrash n3 at=1s")
	if err != nil {
		t.Fatalf("n3 with the node count left to the pattern: %v", err)
	}
	if _, err := s.Resolve(1); err == nil || !strings.Contains(err.Error(), "line 2: crash: field target: n3, but the run has 1 nodes") {
		t.Errorf("Resolve(1) = %v, want the line and field named", err)
	}
	if _, err := s.Resolve(3); err != nil {
		t.Errorf("Resolve(3) = %v", err)
	}
}

// TestGeneratedScenariosRoundTrip: any valid scenario formats to text that
// parses back to it.
func TestGeneratedScenariosRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genScenario(t)
		if err := s.Validate(); err != nil {
			t.Skip(err) // the generator may combine fields invalidly
		}
		back, err := ParseString(Format(s))
		if err != nil {
			t.Fatalf("Parse(Format(s)) = %v\n%s", err, Format(s))
		}
		if d := cmp.Diff(s, back, ignoreLines); d != "" {
			t.Fatalf("round trip (-want +got):\n%s\n%s", d, Format(s))
		}
	})
}

func genDur(t *rapid.T, name string, lo, hi time.Duration) time.Duration {
	return time.Duration(rapid.Int64Range(int64(lo), int64(hi)).Draw(t, name))
}

func genScenario(t *rapid.T) Scenario {
	s := Default()
	s.Name = rapid.StringMatching(`[a-z][a-z0-9-]{0,12}`).Draw(t, "name")
	s.Summary = rapid.StringMatching(`([a-z0-9,.]+ ){0,4}[a-z]+`).Draw(t, "summary")
	s.Nodes = rapid.IntRange(0, 7).Draw(t, "nodes")
	s.Clients = rapid.IntRange(1, 6).Draw(t, "clients")
	s.TTL = genDur(t, "ttl", 4*time.Millisecond, 10*time.Second) // the lock leaves a TTL of 3ms or less no validity
	s.Duration = genDur(t, "duration", 1, time.Hour)
	s.Workload.Work = genDur(t, "work", 0, time.Second)
	s.Workload.Jitter = genDur(t, "jitter", 0, s.Workload.Work)
	s.Workload.Check = rapid.Bool().Draw(t, "check")
	if rapid.Bool().Draw(t, "extend") {
		s.Workload.ExtendEvery = genDur(t, "extend-every", 1, time.Second)
		s.Workload.ExtendOn = rapid.SampledFrom([]string{"", "work", "write"}).Draw(t, "extend-on")
	}
	s.Net.Latency.TailPPM = rapid.Int64Range(0, 1_000_000).Draw(t, "tail")
	if rapid.Bool().Draw(t, "replicas") {
		s.Replicas = genDur(t, "replicas", 1, time.Second)
		s.ReplicaLag = rapid.SampledFrom([]Lag{LagConst, LagExp, LagUniform}).Draw(t, "lag")
		s.ReplicaCount = rapid.IntRange(0, maxReplicas).Draw(t, "replica-count")
	}
	if rapid.Bool().Draw(t, "pattern") {
		// within the lock's rules (locks.Options), which Validate applies
		s.Pattern = PatternOptions{RenewEvery: genDur(t, "renew-every", 0, s.TTL-1),
			DriftFactor: rapid.Float64Range(0, 0.49).Draw(t, "drift"), NodeTimeout: genDur(t, "node-timeout", 0, time.Second),
			RetryAttempts: rapid.IntRange(0, 9).Draw(t, "retry-attempts"), RetryMaxDelay: genDur(t, "retry-max-delay", s.Workload.Retry, time.Second),
			WaitReplicas: rapid.IntRange(0, 2).Draw(t, "wait-replicas")}
		if s.Pattern.WaitReplicas > 0 {
			s.Pattern.WaitTimeout = genDur(t, "wait-timeout", 0, s.TTL/2)
		}
	}
	for range rapid.IntRange(0, 5).Draw(t, "faults") {
		s.Faults = append(s.Faults, genFault(t, s))
	}
	return s
}

func genFault(t *rapid.T, s Scenario) fault.Fault {
	nodes := max(s.Nodes, 1)
	client := func(l string) string { return "c" + strconv.Itoa(rapid.IntRange(1, s.Clients).Draw(t, l)) }
	node := func(l string) string { return "n" + strconv.Itoa(rapid.IntRange(1, nodes).Draw(t, l)) }
	f := fault.Fault{Kind: rapid.SampledFrom([]fault.Kind{fault.Pause, fault.Slow, fault.Starve, fault.Jump, fault.Drift,
		fault.Crash, fault.Failover, fault.SplitBrain, fault.Partition, fault.SlowLink, fault.Loss, fault.BlackHole}).Draw(t, "kind")}
	if rapid.Bool().Draw(t, "triggered") {
		f.When = fault.When{Client: client("on"), Point: rapid.SampledFrom(fault.Points).Draw(t, "point"), N: rapid.IntRange(1, 9).Draw(t, "n")}
		if rapid.Bool().Draw(t, "offset") {
			f.When.After = genDur(t, "after", 1, time.Minute)
		}
	} else {
		f.When.At = genDur(t, "at", 0, time.Minute)
	}
	switch f.Kind {
	case fault.Pause, fault.Slow, fault.Starve:
		f.Target, f.For = client("target"), genDur(t, "for", 1, time.Minute)
	case fault.Jump:
		f.Target, f.By = rapid.SampledFrom([]string{client("c"), node("n")}).Draw(t, "target"), genDur(t, "by", -time.Hour, time.Hour)
	case fault.Drift:
		f.Target, f.PPM = client("target"), rapid.Int64Range(-900_000, 1_000_000).Draw(t, "ppm")
	case fault.SplitBrain:
		f.Target, f.For, f.A = node("target"), genDur(t, "for", 0, time.Minute), []string{client("old")}
	case fault.Crash, fault.Failover:
		f.Target, f.For, f.Persist = node("target"), genDur(t, "for", 0, time.Minute), rapid.Bool().Draw(t, "persist")
		f.EverySec = f.Persist && rapid.Bool().Draw(t, "everysec")
		if f.Kind == fault.Failover {
			f.For, f.Persist, f.EverySec = 0, false, false
		}
	default:
		f.A, f.B, f.For = []string{client("a")}, []string{node("b"), "db"}, genDur(t, "for", 0, time.Minute)
		switch f.Kind {
		case fault.SlowLink:
			f.By, f.Dir = genDur(t, "by", 1, time.Second), rapid.SampledFrom([]fault.Dir{fault.Request, fault.Reply, fault.Both}).Draw(t, "dir")
		case fault.Loss:
			f.PPM = rapid.Int64Range(1, 1_000_000).Draw(t, "rate")
		}
	}
	if !f.When.Triggered() && rapid.Bool().Draw(t, "schedule") {
		genSchedule(t, &f)
	}
	return f
}

// genSchedule makes f a schedule: a wildcard target, every=, drawn values.
func genSchedule(t *rapid.T, f *fault.Fault) {
	dists := []fault.Dist{fault.Fixed, fault.Exp, fault.Uniform}
	if rapid.Bool().Draw(t, "every") {
		f.Sched.Every = genDur(t, "every", 1, time.Minute)
		f.Sched.EveryDist = rapid.SampledFrom(dists).Draw(t, "every-dist")
	}
	if fault.IsClient(f.Target) && rapid.Bool().Draw(t, "all") {
		f.Target = fault.AllClients
	}
	if slices.Contains(faultFields[f.Kind], "for") {
		f.Sched.ForDist = rapid.SampledFrom(dists).Draw(t, "for-dist")
	}
	signed := append(dists, fault.Spread)
	switch f.Kind {
	case fault.Jump:
		f.Sched.ByDist = rapid.SampledFrom(signed).Draw(t, "by-dist")
		if f.Sched.ByDist == fault.Spread {
			f.By = max(f.By, -f.By)
		}
	case fault.Drift:
		f.Sched.RateDist = rapid.SampledFrom([]fault.Dist{fault.Fixed, fault.Uniform, fault.Spread}).Draw(t, "rate-dist")
		f.PPM = max(f.PPM, -f.PPM)
	case fault.SlowLink:
		f.Sched.ByDist = rapid.SampledFrom(dists).Draw(t, "by-dist")
	}
}

// FuzzParse: Parse never panics, and what it accepts formats to text that
// parses back to the same scenario.
func FuzzParse(f *testing.F) {
	for _, b := range Builtins() {
		s, _ := b.Scenario(3)
		f.Add(Format(s))
	}
	f.Add("start\npause c1 on=write n=2 for=1ms\n")
	f.Add("start\npause c1 on=acquired after=25ms for=1ms\n")
	f.Add("start\nstarve c1 on=renew-sent for=200ms\n")
	f.Add("start clients=2\nblackhole c1|n1 on=renew-sent for=300ms\n")
	f.Add("start clients=2\npause c2 on=acquire-attempt n=3 for=50ms\nblackhole c1,c2|n1,db at=1s\n")
	f.Add("start\ncrash n1 on=c1:acquired for=5ms persist=everysec\n")
	f.Add("start\ncrash n1 at=1s persist=always\n")
	f.Add("start\nreplicas delay=exp(5ms) n=2\nfailover n1 at=1s\nfailover n1 at=2s\n")
	f.Add("start\nreplicas delay=uniform(50ms)\n")
	f.Add("start nodes=1 clients=3\nreplicas delay=5ms\nsplitbrain n1 at=1s for=1s old=c1,c3\n")
	f.Add("start clients=3\npause c* every=exp(1s) for=exp(50ms)\ndrift c* rate=uniform(±200ppm)\n")
	f.Add("start nodes=3\ncrash n* at=1s every=uniform(10s) for=uniform(200ms) persist=yes\njump c1 every=5s by=uniform(±1s)\n")
	f.Add("start\nworkload work=250ms check=no extend-every=30ms extend-on=write\n")
	f.Add("start clients=2\npattern ttl=30s renew-every=10s drift=0.01 node-timeout=50ms retry-attempts=3 retry-delay=10ms retry-max-delay=200ms nodes=5\n")
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ParseString(text)
		if err != nil {
			return
		}
		back, err := ParseString(Format(s))
		if err != nil {
			t.Fatalf("Parse(Format(Parse(x))) = %v\n%s", err, Format(s))
		}
		if d := cmp.Diff(s, back, ignoreLines); d != "" {
			t.Fatalf("round trip (-first +second):\n%s", d)
		}
	})
}

// TestPersistModes: persist= reads the three modes (always a synonym of
// yes) and writes them back canonically.
func TestPersistModes(t *testing.T) {
	for _, tc := range []struct {
		text, canon       string
		persist, everySec bool
	}{
		{"persist=yes", "persist=yes", true, false},
		{"persist=always", "persist=yes", true, false},
		{"persist=everysec", "persist=everysec", true, true},
		{"persist=no", "persist=no", false, false},
	} {
		s, err := ParseString("start\ncrash n1 at=1s for=5ms " + tc.text)
		if err != nil {
			t.Fatalf("%s: %v", tc.text, err)
		}
		f := s.Faults[0]
		if f.Persist != tc.persist || f.EverySec != tc.everySec {
			t.Errorf("%s: Persist, EverySec = %v, %v, want %v, %v", tc.text, f.Persist, f.EverySec, tc.persist, tc.everySec)
		}
		if got, want := FormatFault(f), "crash n1 at=1s for=5ms "+tc.canon; got != want {
			t.Errorf("%s: FormatFault = %q, want %q", tc.text, got, want)
		}
	}
}

// TestReplicasDirective: delay takes a constant or a distribution, n the
// replicas per node, and both write back canonically.
func TestReplicasDirective(t *testing.T) {
	for _, tc := range []struct {
		text  string
		delay time.Duration
		lag   Lag
		n     int
	}{
		{"replicas delay=50ms", 50 * time.Millisecond, LagConst, 0},
		{"replicas delay=exp(5ms) n=2", 5 * time.Millisecond, LagExp, 2},
		{"replicas delay=uniform(1s) n=3", time.Second, LagUniform, 3},
	} {
		s, err := ParseString("start\n" + tc.text + "\n")
		if err != nil {
			t.Fatalf("%s: %v", tc.text, err)
		}
		if s.Replicas != tc.delay || s.ReplicaLag != tc.lag || s.ReplicaCount != tc.n {
			t.Errorf("%s: delay, lag, n = %v, %q, %d, want %v, %q, %d", tc.text, s.Replicas, s.ReplicaLag, s.ReplicaCount, tc.delay, tc.lag, tc.n)
		}
		if !strings.Contains(Format(s), "\n"+tc.text+"\n") {
			t.Errorf("%s: Format writes\n%s", tc.text, Format(s))
		}
	}
}
