package node

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks/lockstest/redistest"
	"github.com/locksim/locksim/sim/sched"
)

// The split brain against real redis-server: a primary and its replica
// (REPLICAOF), the replica promoted (REPLICAOF NO ONE) while the old
// primary stays up, both sides written, then the old primary made a
// replica of the new one (REPLICAOF host port). The simulated node must
// answer each side's commands as Redis does, and the old primary must end
// with exactly what Redis's old primary ends with after its resync: the
// new primary's data set, its own side's writes gone.
func TestSplitBrainAgainstRedis(t *testing.T) {
	ss := redistest.Require(t, 2)
	cs := redistest.Clients(t, ss)
	oldR, newR := cs[0], cs[1]
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	replicaOf(t, ctx, newR, ss[0].Addr)

	s := sched.New()
	n := newNode(t, s, Config{ReplicaDelay: time.Millisecond})
	before := [][]string{{"SET", "a", "1"}, {"SET", "{r}:fence", "5"}, {"SET", "{r}:lock", "c0", "PX", "100000"}, {"DEL", "{r}:lock"}}
	for _, c := range before {
		want(t, strings.Join(c, " ")+" before the split", exec(n, c...), canon(realCmd(ctx, oldR, c)))
	}
	if got := realCmd(ctx, oldR, []string{"WAIT", "1", "5000"}); got.Int != 1 {
		t.Fatalf("WAIT 1 = %v, want the replica to acknowledge", got)
	}
	at(t, s, 10)

	replicaOf(t, ctx, newR, "NO ONE")
	sp, _, err := n.SplitBrain()
	if err != nil {
		t.Fatal(err)
	}
	sides := []struct {
		name string
		sim  *Node
		real *redis.Client
		cmds [][]string
	}{
		{"old primary", sp.Old, oldR, [][]string{{"SET", "{r}:lock", "c1", "NX", "PX", "100000"}, {"INCR", "{r}:fence"}, {"SET", "a", "2"}, {"SET", "old-only", "1"}}},
		{"new primary", n, newR, [][]string{{"SET", "{r}:lock", "c2", "NX", "PX", "100000"}, {"INCR", "{r}:fence"}, {"SET", "new-only", "1"}}},
	}
	for _, side := range sides {
		for _, c := range side.cmds {
			want(t, strings.Join(c, " ")+" on the "+side.name, exec(side.sim, c...), canon(realCmd(ctx, side.real, c)))
		}
	}

	replicaOf(t, ctx, oldR, ss[1].Addr)
	if _, err := n.Rejoin(sp); err != nil {
		t.Fatal(err)
	}
	at(t, s, 20)
	real := realDump(ctx, oldR)
	sim := sp.Old.store.Dump(sp.Old.now(), nil)
	if got, want := dumpText(sim), dumpText(real); got != want {
		t.Errorf("the old primary after it rejoined:\n sim  %s\n real %s", got, want)
	}
	if r := realCmd(ctx, oldR, []string{"SET", "x", "1"}); !strings.HasPrefix(r.Str, "READONLY") || sp.Old.Up() {
		t.Errorf("the rejoined old primary: real SET = %v, simulated up = %v; want it a read-only replica, serving no client", r, sp.Old.Up())
	}
}

// replicaOf sends REPLICAOF to c (target "NO ONE" or an address) and, for
// an address, waits until c has synchronised with it.
func replicaOf(t *testing.T, ctx context.Context, c *redis.Client, target string) {
	t.Helper()
	args := strings.Fields(target)
	if host, port, ok := strings.Cut(target, ":"); ok {
		args = []string{host, port}
	}
	if err := c.Do(ctx, append([]any{"REPLICAOF"}, args[0], args[1])...).Err(); err != nil {
		t.Fatalf("REPLICAOF %s: %v", target, err)
	}
	if target == "NO ONE" {
		return
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		info, err := c.Info(ctx, "replication").Result()
		if err == nil && strings.Contains(info, "master_link_status:up") && !strings.Contains(info, "master_sync_in_progress:1") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("not in sync with %s after 20s: %v %q", target, err, info)
		}
		time.Sleep(20 * time.Millisecond) // real time: a real replica's sync
	}
}

func realCmd(ctx context.Context, c *redis.Client, args []string) Reply {
	as := make([]any, len(args))
	for i, a := range args {
		as[i] = a
	}
	cmd := c.Do(ctx, as...)
	return fromGoRedis(cmd.Val(), cmd.Err())
}

// canon is r as the simulated node words it: go-redis reports a status
// reply (OK) as a string.
func canon(r Reply) Reply {
	if r.Kind == KindBulk && r.Str == "OK" {
		return Status("OK")
	}
	return r
}

// dumpText renders a dump's keys, types, values and whether each expires.
func dumpText(ks []KeyState) string {
	var b strings.Builder
	for _, k := range ks {
		b.WriteString(k.Key + "=" + k.Type + ":" + k.Str)
		if k.ExpireAt != 0 {
			b.WriteString("(expires)")
		}
		b.WriteString(" ")
	}
	return b.String()
}
