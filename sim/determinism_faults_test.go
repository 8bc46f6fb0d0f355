package sim

import (
	"bytes"
	"testing"
)

// TestSameSeedSameBytesNewTriggers: the after= offset, every call point,
// the manual-extend step, starve, a stall, the fsync window, failover chains, replica lag distributions,
// split brain, nemesis schedules, the black-holed (half-open) link and the acquire-attempt trigger run twice with one seed and write the
// same bytes (TestSameSeedSameBytes covers the built-in scenarios).
func TestSameSeedSameBytesNewTriggers(t *testing.T) {
	for _, tc := range []struct{ pattern, text string }{
		{"basic", "start clients=2 duration=500ms\nworkload prep=20ms\npause c1 on=write after=5ms for=150ms\n"},
		{"redlock", "start clients=2 duration=500ms\npause c1 on=acquire-reply for=150ms\nslow c2 on=acquire-sent n=3 for=20ms\n"},
		{"basic", "start clients=2 duration=500ms\nslow c1 on=release-sent for=5ms\npause c2 on=release-reply for=50ms\nslow c1 on=read-sent for=5ms\npause c2 on=read-reply for=30ms\nslow c1 on=write-sent for=5ms\npause c2 on=write-reply n=2 for=30ms\n"},
		{"watchdog", "start clients=2 duration=500ms\npause c1 on=renew-sent for=40ms\npause c2 on=renew-reply n=2 for=40ms\n"},
		{"basic", "start clients=2 duration=500ms\nworkload work=250ms jitter=0s check=no extend-every=30ms\npause c1 on=extend-reply n=2 for=120ms\n"},
		{"fenced", "start clients=2 duration=500ms\nworkload extend-every=5ms extend-on=write\nslow c1 on=extend-sent for=5ms\n"},
		{"watchdog-zombie-renewal", "start clients=3 duration=1s\n"},
		{"service", "start clients=2 duration=500ms\nworkload work=250ms jitter=0s\nstarve c1 on=acquired for=200ms\nstarve c2 at=100ms for=50ms\n"},
		{"fenced", "start clients=3 duration=3s\ncrash n1 at=1500ms for=5ms persist=everysec\nreplicas delay=20ms\nfailover n1 at=2s\n"},
		{"basic", "start clients=3 duration=1s\nreplicas delay=exp(20ms) n=2\nfailover n1 at=300ms\nfailover n1 at=600ms\n"},
		{"fenced", "start clients=3 duration=2s\nreplicas delay=exp(5ms)\nsplitbrain n1 at=500ms for=500ms old=c1,c3\n"},
		{"redlock", "start clients=3 duration=2s\nreplicas delay=5ms\nsplitbrain n* at=300ms every=exp(500ms) for=uniform(100ms) old=c2\n"},
		{"basic", "start clients=3 duration=2s\npause c* every=exp(200ms) for=exp(30ms)\ndrift c* rate=uniform(±200ppm)\njump c2 every=exp(500ms) by=uniform(±5ms)\n"},
		{"fenced", "start nodes=1 clients=3 duration=3s\ncrash n1 every=exp(500ms) for=uniform(100ms) persist=no\nstarve c* every=exp(300ms) for=uniform(50ms)\n"},
		{"redlock", "start clients=3 duration=1s\nreplicas delay=uniform(10ms) n=3\nfailover n2 on=c1:acquired\ncrash n2 at=400ms for=5ms\nfailover n2 at=700ms\n"},
		{"watchdog", "start clients=2 duration=1s\nworkload work=250ms jitter=0s\nblackhole c1|n1 on=c1:renew-sent for=300ms\n"},
		{"watchdog-late-done", "start clients=2 duration=1s\nworkload work=250ms jitter=0s\nblackhole c1|n1 on=c1:renew-sent for=300ms\n"},
		{"redlock", "start clients=3 duration=1s\npause c2 on=acquire-attempt n=3 for=50ms\nblackhole c1|n1,n2 at=200ms for=100ms\n"},
		{"watchdog", "start clients=3 duration=1s\nreplicas n=2 delay=5ms\npattern wait-replicas=1 wait-timeout=50ms\nsplitbrain n1 at=300ms for=300ms old=c1\n"},
	} {
		p := lookupPattern(t, tc.pattern)
		s := parseScenario(t, tc.text)
		first, second := output(t, p, s, 42), output(t, p, s, 42)
		if !bytes.Equal(first, second) {
			t.Errorf("%s under %q, seed 42: two runs differ (first difference at byte %d)", tc.pattern, tc.text, firstDiff(first, second))
		}
	}
}
