package gate

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestParseReadsLines(t *testing.T) {
	text := `# a comment line

basic  gc-pause  breaks mutex           # no fencing
fenced gc-pause  holds  safe-store,fencing seeds=80
basic  steady    may    mutex,progress  # long
variant basic-del of basic
variant reentrant-nocount of reentrant exempt # no re-entry
`
	m, err := Parse("x.txt", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(text))
	want := &Matrix{Source: "x.txt", SHA256: hex.EncodeToString(sum[:]),
		Expect: []Expectation{
			{Line: 3, Pattern: "basic", Scenario: "gc-pause", Verdict: Breaks, Claims: []string{"mutex"}, Why: "no fencing"},
			{Line: 4, Pattern: "fenced", Scenario: "gc-pause", Verdict: Holds, Claims: []string{"safe-store", "fencing"}, Seeds: 80},
			{Line: 5, Pattern: "basic", Scenario: "steady", Verdict: May, Claims: []string{"mutex", "progress"}, Why: "long"},
		},
		Variants: []Variant{{Line: 6, Name: "basic-del", Of: "basic"},
			{Line: 7, Name: "reentrant-nocount", Of: "reentrant", Exempt: true, Why: "no re-entry"}},
	}
	if diff := cmp.Diff(want, m, cmpopts.EquateEmpty(), cmpopts.IgnoreUnexported(Matrix{})); diff != "" {
		t.Errorf("Parse (-want +got):\n%s", diff)
	}
}

func TestParseErrorsNameTheLine(t *testing.T) {
	for _, tc := range []struct {
		name, text, want string
	}{
		{"unknown pattern", "basic gc-pause holds mutex\nnope gc-pause holds mutex\n", `x.txt:2: unknown pattern "nope"`},
		{"unknown scenario", "basic nope holds mutex\n", `x.txt:1: unknown scenario "nope"`},
		{"bad verdict", "\nbasic gc-pause keeps mutex\n", `x.txt:2: verdict "keeps", want holds, breaks or may`},
		{"claim not made", "basic gc-pause holds fencing\n", `x.txt:1: claim "fencing": basic claims mutex, progress, loss-signal (or give progress or no-starvation)`},
		{"claim of another kind", "semaphore gc-pause holds mutex\n", `x.txt:1: claim "mutex": semaphore claims max-holders, progress, loss-signal (or give progress or no-starvation)`},
		{"too few fields", "basic gc-pause holds\n", "x.txt:1: 3 fields, want: pattern scenario"},
		{"bad seeds", "basic gc-pause holds mutex seeds=0\n", `x.txt:1: "seeds=0": want seeds=N with N ≥ 1`},
		{"not seeds", "basic gc-pause holds mutex many\n", `x.txt:1: "many": want seeds=N`},
		{"claim twice", "basic gc-pause breaks mutex\nbasic gc-pause holds mutex,progress\n", "x.txt:2: basic under gc-pause: claim mutex already expected on line 1"},
		{"two budgets", "basic gc-pause breaks mutex seeds=5\nbasic gc-pause holds progress\n", "x.txt:2: basic under gc-pause: seeds=0, but line 1 gives the cell seeds=5"},
		{"variant of broken", "basic gc-pause breaks mutex\nvariant basic-del of fenced-volatile\n", "x.txt:2: variant basic-del of fenced-volatile: fenced-volatile is itself a broken variant"},
		{"variant not broken", "variant basic of fenced\n", "x.txt:1: variant basic: not a broken variant"},
		{"variant twice", "variant basic-del of basic\nvariant basic-del of basic\n", "x.txt:2: variant basic-del: already given on line 1"},
		{"variant syntax", "variant basic-del basic\n", "x.txt:1: want: variant BROKEN of PATTERN [exempt]"},
		{"variant suffix", "variant basic-del of basic maybe\n", "x.txt:1: want: variant BROKEN of PATTERN [exempt]"},
		{"exempt without why", "variant basic-del of basic exempt\n", "x.txt:1: variant basic-del: exempt needs a comment"},
		{"empty", "# nothing\n", "x.txt: no expectations"},
	} {
		_, err := Parse("x.txt", strings.NewReader(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Parse error = %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

func TestDefaultMatrixParses(t *testing.T) {
	m, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range m.Expect {
		if e.Verdict != Holds && e.Why == "" {
			t.Errorf("%s:%d: %s under %s %s %v has no comment saying why", m.Source, e.Line, e.Pattern, e.Scenario, e.Verdict, e.Claims)
		}
	}
}

func TestOwnScenariosParse(t *testing.T) {
	scs, err := Scenarios()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, sc := range scs {
		names = append(names, sc.Name)
		if own, err := lookupScenario(sc.Name); err != nil || own.Arg != sc.Name {
			t.Errorf("scenario %s: lookup = %+v, %v; want it found, replayed by its name", sc.Name, own, err)
		}
		if want := ScenarioDir + "/" + sc.Name + ".txt"; sc.Arg != want {
			t.Errorf("scenario %s replays as %q, want %q", sc.Name, sc.Arg, want)
		}
	}
	const own = "blackhole-renewal,crowded-pause,extend-lost-majority,failover-async-replication-wait,failover-lag-const,failover-lag-exp-wait,failover-lag-exp,failover-lag-slow-wait,failover-lag-slow,failover-mid-grant-wait,failover-mid-grant,failover-mid-retry-wait,failover-mid-retry,failover-once-replica,failover-twice-wait,failover-twice,fsync-always,fsync-everysec,gc-storm-below-ttl,gc-storm,late-release,long-work-careless,long-work-extended,lossy-link,misuse,pause-mid-prep,paused-grant,reenter,renewal-cut-careless,renewal-cut,retry-pause,slow-quorum,split-brain-wait,split-brain,stale-read-release,starved-watchdog-careless,starved-watchdog"
	if got := strings.Join(names, ","); got != own {
		t.Errorf("the gate's scenarios = %s, want %s", got, own)
	}
	if _, err := lookupScenario("no-such"); err == nil || !strings.Contains(err.Error(), "nor one of the gate's own (blackhole-renewal, crowded-pause, extend-lost-majority, failover-async-replication-wait, failover-lag-const, failover-lag-exp, failover-lag-exp-wait, failover-lag-slow, failover-lag-slow-wait, failover-mid-grant, failover-mid-grant-wait, failover-mid-retry, failover-mid-retry-wait, failover-once-replica, failover-twice, failover-twice-wait, fsync-always, fsync-everysec, gc-storm, gc-storm-below-ttl, late-release, long-work-careless, long-work-extended, lossy-link, misuse, pause-mid-prep, paused-grant, reenter, renewal-cut, renewal-cut-careless, retry-pause, slow-quorum, split-brain, split-brain-wait, stale-read-release, starved-watchdog, starved-watchdog-careless)") {
		t.Errorf("lookupScenario(no-such) = %v, want it to list the gate's own", err)
	}
}

func TestParseSkipsByteOrderMark(t *testing.T) {
	text := "basic gc-pause breaks mutex # no fencing\n"
	plain, err := Parse("x.txt", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	bom, err := Parse("x.txt", strings.NewReader("\ufeff"+text))
	if err != nil {
		t.Fatalf("Parse with a UTF-8 byte order mark: %v", err)
	}
	if diff := cmp.Diff(plain, bom, cmpopts.IgnoreUnexported(Matrix{}), cmpopts.IgnoreFields(Matrix{}, "SHA256")); diff != "" {
		t.Errorf("with and without a BOM (-without +with):\n%s", diff)
	}
	_, err = Parse("x.bin", strings.NewReader("\x7fELF\x02\x01\x00\x00"))
	if err == nil || !strings.Contains(err.Error(), "x.bin:1: not a text expectations file") || strings.Contains(err.Error(), "ELF") {
		t.Errorf("Parse of binary input = %v, want 'not a text expectations file' without the bytes", err)
	}
}
