package locks

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestRedlockRefusesDuplicateNodes: a Redlock given one server more than
// once — the same client value, or two clients of one address, or a
// cluster's seed address again — is refused at construction with an
// *OptionError naming the node, where it used to count one server as a
// quorum: with one client three times, Acquire held "3 of 3" on one server.
func TestRedlockRefusesDuplicateNodes(t *testing.T) {
	extBoth(t, func(t *testing.T, e *extEnv) {
		a, b := e.client(t), e.client(t)
		other2 := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", DialerRetries: 1, ContextTimeoutEnabled: true})
		other3 := redis.NewClient(&redis.Options{Addr: "127.0.0.1:2", DialerRetries: 1, ContextTimeoutEnabled: true})
		cluster := redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{e.addr}, ContextTimeoutEnabled: true})
		t.Cleanup(func() { other2.Close(); other3.Close(); cluster.Close() })
		for _, tc := range []struct {
			name  string
			nodes []Redis
			field string
		}{
			{"one client three times", []Redis{a, a, a}, "nodes[1]"},
			{"one cluster client three times", []Redis{cluster, cluster, cluster}, "nodes[1]"},
			{"two clients of one address", []Redis{other2, a, b}, "nodes[2]"},
			{"a client of a cluster's seed", []Redis{other2, cluster, a}, "nodes[2]"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				rl, err := NewRedlock(tc.nodes, extName(t), Options{TTL: time.Second})
				var oe *OptionError
				if !errors.As(err, &oe) || oe.Field != tc.field {
					if err == nil {
						l, aerr := rl.Acquire(t.Context())
						t.Errorf("NewRedlock(%s) = nil error, want *OptionError on %s (Acquire then = %v, %v)", tc.name, tc.field, l, aerr)
						return
					}
					t.Fatalf("NewRedlock(%s) = %v, want *OptionError on %s", tc.name, err, tc.field)
				}
				if !strings.Contains(err.Error(), "distinct servers") {
					t.Errorf("NewRedlock(%s) = %q, want it to say the nodes must be distinct servers", tc.name, err)
				}
			})
		}
		if _, err := NewRedlock([]Redis{a, other2, other3}, extName(t), Options{TTL: time.Second}); err != nil {
			t.Errorf("NewRedlock(three addresses) = %v, want nil", err)
		}
	})
}

// TestRedlockDialerNodesAreDistinct: clients that dial through their own
// Dialer (a pipe, a failover client) are compared by value only: their
// Addr, the default for all of them, names no server.
func TestRedlockDialerNodesAreDistinct(t *testing.T) {
	var nodes []Redis
	for range 3 {
		e := extMini(t)
		dial := func(context.Context, string, string) (net.Conn, error) { return e.mr.Dial() }
		c := redis.NewClient(&redis.Options{Dialer: dial, DialerRetries: 1, ContextTimeoutEnabled: true})
		t.Cleanup(func() { c.Close() })
		nodes = append(nodes, c)
	}
	if _, err := NewRedlock(nodes, extName(t), Options{TTL: time.Second}); err != nil {
		t.Errorf("NewRedlock(three clients with their own Dialer) = %v, want nil", err)
	}
}
