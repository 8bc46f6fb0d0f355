package realmode

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/locksim/locksim/clock/clocktest"
	"github.com/locksim/locksim/linearizability"
	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/scenario"
	"github.com/redis/go-redis/v9"
)

// The test binary is also the client: re-executed with clientEnv set, it
// runs ClientMain instead of the tests.
const clientEnv = "LOCKSIM_REALMODE_TEST_CLIENT=1"

func TestMain(m *testing.M) {
	redis.SetLogger(quietLogger{})
	if os.Getenv("LOCKSIM_REALMODE_TEST_CLIENT") == "1" {
		if mode := os.Getenv(breakEnv); mode != "" {
			os.Exit(brokenClientMain(mode))
		}
		os.Exit(ClientMain(misbehaving...))
	}
	os.Exit(m.Run())
}

// misbehaving are patterns only the test client knows: one whose Acquire
// panics, one whose Acquire never returns.
var misbehaving = []Subject{
	{Name: "test-panics", Nodes: 1, Claims: pattern.Claims{Mutex: true}, New: func([]*redis.Client, string, locks.Options) (Lock, error) {
		return panicky{}, nil
	}},
	{Name: "test-slow-start", Nodes: 1, Claims: pattern.Claims{Mutex: true}, New: func(nodes []*redis.Client, key string, o locks.Options) (Lock, error) {
		if strings.HasPrefix(o.Rand.Token(), "c2-") { // seeded tokens start with the client's name
			time.Sleep(time.Minute) // real time: this client is an OS process that must stay in its start-up
		}
		return PatternSubject(pattern.All()[0]).New(nodes, key, o)
	}},
	{Name: "test-no-signal", Nodes: 1, Claims: pattern.Claims{Mutex: true, LossSignal: pattern.LossSignalTimer}, New: func(nodes []*redis.Client, key string, o locks.Options) (Lock, error) {
		l, err := PatternSubject(pattern.All()[0]).New(nodes, key, o)
		return silentLock{l}, err
	}},
	{Name: "test-hangs", Nodes: 1, Claims: pattern.Claims{Mutex: true}, New: func([]*redis.Client, string, locks.Options) (Lock, error) {
		return hangs{}, nil
	}},
}

func testLookup(name string) (pattern.Pattern, error) {
	s, err := findSubject(misbehaving, name)
	return s.Pattern(), err
}

type panicky struct{}

func (panicky) Acquire(context.Context) (Lease, error) { panic("test-panics: a library bug") }
func (panicky) Release(context.Context, Lease) error   { return nil }

// silentLock is basic whose leases never tell their holder of a loss
// (no Done, Err always nil): only Release's refusal does.
type silentLock struct{ Lock }

type silentLease struct{ l Lease }

func (s silentLock) Acquire(ctx context.Context) (Lease, error) {
	l, err := s.Lock.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	return silentLease{l}, nil
}

func (s silentLock) Release(ctx context.Context, l Lease) error {
	return s.Lock.Release(ctx, l.(silentLease).l)
}

func (s silentLease) Token() string { return s.l.Token() }
func (s silentLease) Fence() int64  { return s.l.Fence() }
func (s silentLease) Count() int    { return s.l.Count() }
func (s silentLease) Shared() bool  { return s.l.Shared() }
func (s silentLease) Err() error    { return nil }

type hangs struct{}

func (hangs) Acquire(context.Context) (Lease, error) { select {} }
func (hangs) Release(context.Context, Lease) error   { return nil }

// children lists the live child processes of this test process.
func children(t *testing.T) []string {
	t.Helper()
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var out []string
	me := strconv.Itoa(os.Getpid())
	for _, f := range stats {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		s := string(b)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) > 1 && fields[1] == me && fields[0] != "Z" {
			out = append(out, s[:strings.IndexByte(s, ' ')]+" "+s[strings.IndexByte(s, '(')+1:strings.LastIndexByte(s, ')')])
		}
	}
	return out
}

func testConfig(t *testing.T, pattern string, sc scenario.Scenario, seed uint64) Config {
	t.Helper()
	p, err := testLookup(pattern)
	if err != nil {
		t.Fatal(err)
	}
	return Config{Pattern: p, Scenario: sc, Seed: seed, Client: []string{os.Args[0]}, ClientEnv: []string{clientEnv}}
}

func builtin(t *testing.T, name string, nodes int) scenario.Scenario {
	t.Helper()
	sc, err := scenario.Lookup(name, nodes)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// runReal runs cfg and checks that every process it started is gone.
func runReal(t *testing.T, cfg Config) *Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := Run(ctx, cfg)
	if left := children(t); len(left) > 0 {
		t.Errorf("processes left running after the run: %v", left)
	}
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestSteadyIsClean: three client processes on one real redis-server,
// no fault, a TTL far above any stall: every claim holds, porcupine says Ok, the store counted
// every accepted write, and nothing is left running.
func TestSteadyIsClean(t *testing.T) {
	needRedis(t)
	sc := builtin(t, "steady", 1)
	// A 1s TTL: on a loaded machine a client can stall past steady's 100ms
	// (see reports/real/NOTES.md), which is a pause, not a plumbing fault.
	sc.Clients, sc.Duration, sc.TTL = 3, 1500*time.Millisecond, time.Second
	res := runReal(t, testConfig(t, "basic", sc, 1))
	if err := res.Err(); err != nil {
		t.Fatal(err)
	}
	if len(res.Violated) > 0 || res.Linearizable != linearizability.Ok {
		t.Fatalf("steady basic: %s", res.Summary())
	}
	if res.Liveness.Acquisitions < 10 || res.Safety.Counter != res.Safety.Accepted {
		t.Errorf("steady basic: %d acquisitions, counter %d of %d accepted writes", res.Liveness.Acquisitions, res.Safety.Counter, res.Safety.Accepted)
	}
}

// TestClientFailuresNamed: a client whose lock panics, or hangs, gets a
// verdict naming it, and every process is stopped.
func TestClientFailuresNamed(t *testing.T) {
	needRedis(t)
	for _, c := range []struct{ pattern, want string }{
		{"test-panics", "panic: test-panics: a library bug"},
		{"test-hangs", "hung: no message for"},
	} {
		t.Run(c.pattern, func(t *testing.T) {
			sc := builtin(t, "steady", 1)
			sc.Clients, sc.Duration = 2, 20*time.Second
			cfg := testConfig(t, c.pattern, sc, 1)
			cfg.HangAfter = 500 * time.Millisecond
			res := runReal(t, cfg)
			err := res.Err()
			if !errors.Is(err, ErrClientFailed) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "c1") && !strings.Contains(err.Error(), "c2") {
				t.Fatalf("%s: Err() = %v, want a failure naming the client and %q", c.pattern, err, c.want)
			}
			if res.Wall > 10*time.Second {
				t.Errorf("%s: the run went on for %v after the failure", c.pattern, res.Wall)
			}
		})
	}
}

// TestRefusedFaultsNamed: a scenario with a fault real mode cannot do is
// refused, naming the fault; no process is started.
func TestRefusedFaultsNamed(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"loss c1|n1 for=10ms rate=10%", "loss"},
		{"partition c1|db for=10ms", "protected store"},
		{"drift n1 at=0s rate=+10%", "drift"},
		{"drift c1 at=100ms rate=+10%", "from the start"},
		{"crash n1 at=100ms for=5ms persist=everysec", "page cache"},
		{"pause c* every=exp(1s) for=exp(50ms)", "a schedule"},
		{"replicas delay=5ms\nsplitbrain n1 at=100ms for=50ms old=c1", "kills the old primary"},
	} {
		sc, err := scenario.ParseString("start clients=2\n" + c.text + "\n")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Run(context.Background(), testConfig(t, "basic", sc, 1)); !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ErrUnsupported naming %q", c.text, err, c.want)
		}
	}
	lib := testConfig(t, "basic", builtin(t, "client-clock-drift", 1), 1)
	lib.Library = true
	if _, err := Run(context.Background(), lib); !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "not the Clock seam") {
		t.Errorf("a drift for a library: %v, want ErrUnsupported naming the Clock seam it does not use", err)
	}
	lib.Scenario = builtin(t, "client-clock-jump", 1)
	if _, err := Run(context.Background(), lib); !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "not the Clock seam") {
		t.Errorf("a client clock jump for a library: %v, want ErrUnsupported naming the Clock seam it does not use", err)
	}
	_, err := Run(context.Background(), Config{Pattern: misbehaving[2].Pattern(), Scenario: builtin(t, "steady", 1)})
	if err == nil || !strings.Contains(err.Error(), "Config.Client is empty") {
		t.Errorf("no client command: %v", err)
	}
}

// TestDescribeAsksTheClient: the coordinator learns a pattern only the
// client binary knows from the binary itself.
func TestDescribeAsksTheClient(t *testing.T) {
	p, err := Describe([]string{os.Args[0]}, []string{clientEnv}, "test-hangs")
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "test-hangs" || p.Nodes != 1 || !p.Claims.Mutex {
		t.Errorf("Describe(test-hangs) = %+v", p)
	}
	if _, err := Describe([]string{os.Args[0]}, []string{clientEnv}, "no-such"); err == nil || !strings.Contains(err.Error(), `"no-such"`) {
		t.Errorf("Describe(no-such) = %v, want an error naming it", err)
	}
}

// TestCancelWhileStarting: a run cancelled while one client is ready and
// another still builds its lock returns at once, and nothing is left
// running (the ready client is not left waiting for a start).
func TestCancelWhileStarting(t *testing.T) {
	needRedis(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	start := time.Now()
	_, err := Run(ctx, testConfig(t, "test-slow-start", builtin(t, "steady", 1), 1))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Run = %v, want the context's deadline", err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("Run returned %v after it was cancelled", d)
	}
	if left := children(t); len(left) > 0 {
		t.Errorf("processes left running: %v", left)
	}
}

// TestServerDiesOnItsOwn: a redis-server killed by someone else in the
// middle of a run ends it with an error naming the server, and every
// other process is stopped.
func TestServerDiesOnItsOwn(t *testing.T) {
	needRedis(t)
	sc := builtin(t, "steady", 1)
	sc.Clients, sc.Duration = 2, 20*time.Second
	go func() {
		// Real processes: wait (real time) until the server and both
		// clients run, then kill the server.
		clocktest.Eventually(30*time.Second, func() bool { return len(children(t)) >= 1+sc.Clients })
		for _, c := range children(t) {
			if strings.HasSuffix(c, " redis-server") {
				pid, _ := strconv.Atoi(strings.Fields(c)[0])
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	}()
	start := time.Now()
	_, err := Run(context.Background(), testConfig(t, "basic", sc, 1))
	if err == nil || !strings.Contains(err.Error(), "redis-server n1") || !strings.Contains(err.Error(), "died on its own") {
		t.Errorf("Run = %v, want an error naming n1 that died", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the run went on %v after its server died", d)
	}
	if left := children(t); len(left) > 0 {
		t.Errorf("processes left running: %v", left)
	}
}
