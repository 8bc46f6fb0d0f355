package locks

import (
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strings"

	"github.com/redis/go-redis/v9"
)

// checkDistinct refuses a Redlock whose nodes are not distinct servers:
// the same client value given twice, or two clients whose options name a
// common address. The quorum counts nodes, and every copy of one server
// answers "granted" for the same key (the acquisition takes a key that
// holds its own token for its request sent again), so three copies of one
// client would make "a majority" of one server, which one restart or one
// clock jump takes away whole. Clients that dial through a Dialer of
// their own (a failover client, a test's pipe) name no address the check
// can trust: only their values are compared.
func checkDistinct(nodes []Redis) error {
	addrs := make([][]string, len(nodes))
	for j, n := range nodes {
		addrs[j] = nodeAddrs(n)
		for i := range j {
			if same(nodes[i], n) {
				return &OptionError{fmt.Sprintf("nodes[%d]", j), fmt.Sprintf("%T", n), fmt.Sprintf("is nodes[%d] again: the quorum needs distinct servers (one client given twice counts one server twice)", i)}
			}
			if a, ok := shared(addrs[i], addrs[j]); ok {
				return &OptionError{fmt.Sprintf("nodes[%d]", j), a, fmt.Sprintf("is the address of nodes[%d] too: the quorum needs distinct servers (one server counted twice makes a majority of it)", i)}
			}
		}
	}
	return nil
}

// same reports whether a and b are one client value.
func same(a, b Redis) bool {
	ta := reflect.TypeOf(a)
	return ta == reflect.TypeOf(b) && ta.Comparable() && any(a) == any(b)
}

// shared returns an address both lists hold.
func shared(a, b []string) (string, bool) {
	for _, x := range a {
		if slices.Contains(b, x) {
			return x, true
		}
	}
	return "", false
}

// nodeAddrs is the addresses a go-redis client's options name (a cluster's
// or a ring's every one), network included; nil for a client with a
// Dialer of its own, whose Addr need not say where it connects (a failover
// client's is "FailoverClient", a pipe's the default), and for any other
// seam.
func nodeAddrs(r Redis) []string {
	switch c := r.(type) {
	case *redis.Client:
		if o := c.Options(); ownDialer(o.Dialer) {
			return []string{netAddr(o.Network, o.Addr)}
		}
	case *redis.ClusterClient:
		if o := c.Options(); ownDialer(o.Dialer) {
			return netAddrs("tcp", o.Addrs)
		}
	case *redis.Ring:
		if o := c.Options(); ownDialer(o.Dialer) {
			var out []string
			for _, a := range o.Addrs {
				out = append(out, netAddr("tcp", a))
			}
			return out
		}
	}
	return nil
}

// ownDialer reports whether a client's Dialer is go-redis's default (or
// none yet), which dials the options' address, so that the address says
// where the client connects. The default is the closure of
// redis.NewDialer, inlined where the options are initialised, so it is
// known by its function's name; any other Dialer, or a name this does not
// recognise, only spares the client the address check.
func ownDialer[F any](f F) bool {
	v := reflect.ValueOf(f)
	if v.IsNil() {
		return true
	}
	fn := runtime.FuncForPC(v.Pointer())
	if fn == nil {
		return false
	}
	name := fn.Name()
	return strings.HasPrefix(name, "github.com/redis/go-redis/v9.") && strings.Contains(name, "NewDialer.func")
}

func netAddr(network, addr string) string {
	if network == "" {
		network = "tcp"
	}
	return network + "://" + addr
}

func netAddrs(network string, addrs []string) []string {
	out := make([]string, len(addrs))
	for i, a := range addrs {
		out[i] = netAddr(network, a)
	}
	return out
}
