package node

import (
	"testing"

	"github.com/locksim/locksim/sim/sched"
)

// TestPeekMarkIsPeek holds PeekMark, on each backend, to Peek of the one
// key and KeyState.Marks: every type, present and absent tokens, an empty
// token, a missing key, and a key just past its expiry.
func TestPeekMarkIsPeek(t *testing.T) {
	for _, backend := range []Backend{BackendNative, BackendMini} {
		t.Run(string(backend), func(t *testing.T) {
			s := sched.New()
			n := newNode(t, s, Config{Backend: backend})
			for _, cmd := range [][]string{
				{"SET", "str", "tok", "PX", "500"},
				{"HINCRBY", "hash", "tok", "1"},
				{"HINCRBY", "hash", "other", "2"},
				{"PEXPIRE", "hash", "700"},
				{"SADD", "set", "tok", "x"},
				{"ZADD", "zset", "12", "tok", "13", "y"},
				{"PEXPIRE", "zset", "900"},
				{"RPUSH", "list", "a", "tok"},
				{"SET", "soon", "tok", "PX", "10"},
			} {
				if r := n.Exec(cmd); r.IsError() {
					t.Fatalf("%v = %v", cmd, r)
				}
				if backend == BackendNative && n.store != Store(n.native) {
					t.Fatalf("%v moved the node to miniredis: PeekMark's native path goes untested", cmd)
				}
			}
			at(t, s, 20) // "soon" has expired
			for _, key := range []string{"str", "hash", "set", "zset", "list", "soon", "missing"} {
				for _, token := range []string{"tok", "1", "12", "a", "nope", ""} {
					gotAt, gotOK := n.PeekMark(key, token) // first: Peek drops an expired key
					ks := n.Peek([]string{key})
					wantOK := len(ks) == 1 && ks[0].Marks(token)
					wantAt := int64(0)
					if wantOK {
						wantAt = ks[0].ExpireAt
					}
					if gotAt != wantAt || gotOK != wantOK {
						t.Errorf("PeekMark(%q, %q) = %d, %v; Peek says %d, %v", key, token, gotAt, gotOK, wantAt, wantOK)
					}
				}
			}
		})
	}
}
