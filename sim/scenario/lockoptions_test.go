package scenario

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/locksim/locksim/locks"
)

// TestLockOptions: every option of the pattern line, the TTL and the
// first retry backoff reach the lock's options; retry-attempts 0 retries
// until the workload's acquire-timeout.
func TestLockOptions(t *testing.T) {
	s, err := ParseString("start ttl=300ms\nworkload retry=7ms\n" +
		"pattern renew-every=90ms drift=0.02 node-timeout=15ms retry-attempts=4 retry-max-delay=80ms wait-replicas=1 wait-timeout=20ms\n")
	if err != nil {
		t.Fatal(err)
	}
	want := locks.Options{TTL: 300 * time.Millisecond, Retry: locks.Retry{Attempts: 4, Delay: 7 * time.Millisecond, MaxDelay: 80 * time.Millisecond},
		RenewEvery: 90 * time.Millisecond, DriftFactor: 0.02, NodeTimeout: 15 * time.Millisecond, WaitReplicas: 1, WaitTimeout: 20 * time.Millisecond}
	if d := cmp.Diff(want, s.LockOptions(), cmpopts.IgnoreUnexported(locks.Options{})); d != "" {
		t.Errorf("LockOptions (-want +got):\n%s", d)
	}
	if got := Default().LockOptions(); got.Retry.Attempts != -1 || got.TTL != Default().TTL || got.Retry.Delay != Default().Workload.Retry {
		t.Errorf("Default().LockOptions() = %+v, want the default TTL and retry, retrying until acquire-timeout", got)
	}
}
