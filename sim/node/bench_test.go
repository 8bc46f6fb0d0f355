package node

import (
	"testing"

	"github.com/locksim/locksim/locks"
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
			acq, rel := locks.Scripts()["fenced_acquire"], locks.Scripts()["release"]
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
