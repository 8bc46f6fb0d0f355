package realmode

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/locksim/locksim/sim"
	"github.com/locksim/locksim/sim/fault"
	"github.com/redis/go-redis/v9"
)

// A scenario with replicas (replicas delay=D) gives every node a real
// replica: a redis-server started with --replicaof, whose replication
// link goes through a proxy that holds every byte the primary sends for
// D, so the replica lags its primary by D as the simulator's does. A
// failover of node i cuts that link (what it still held is lost),
// promotes the replica with REPLICAOF NO ONE, SIGKILLs the old primary and
// re-points every client's proxy for node i to the replica: the clients'
// open connections break and their next calls reach the new primary.

// replicaSyncTimeout bounds the wait for a replica's first full sync.
const replicaSyncTimeout = 15 * time.Second

// startReplicas starts a lagging replica for every node, if the scenario
// has replicas.
func (c *coord) startReplicas(ctx context.Context) error {
	if c.sc.Replicas == 0 {
		return nil
	}
	for _, s := range c.servers {
		l, err := NewLink(s.Addr())
		if err != nil {
			return err
		}
		c.replLinks = append(c.replLinks, l)
		l.Slow(fault.Reply, c.sc.Replicas)
		host, port, _ := strings.Cut(l.Addr(), ":")
		r, err := startServer(ctx, ServerConfig{Name: s.Name() + "-replica", Binary: c.cfg.Server, Args: []string{"--replicaof", host, port}})
		if err != nil {
			return err
		}
		r.EndWaitsWith(c.early, nil) // a promoted replica's restart ends with the run
		c.replicas = append(c.replicas, r)
		if err := waitSynced(ctx, r); err != nil {
			return fmt.Errorf("realmode: replica of %s on %s: %w (log: %s)", s.Name(), r.Addr(), err, r.Log())
		}
	}
	return nil
}

// waitSynced waits until the replica's link to its primary is up.
func waitSynced(ctx context.Context, r *Server) error {
	rdb := redis.NewClient(&redis.Options{Addr: r.Addr(), DialerRetries: 1, MaxRetries: -1})
	defer rdb.Close()
	deadline := time.Now().Add(replicaSyncTimeout)
	for {
		ictx, cancel := context.WithTimeout(ctx, time.Second)
		info, err := rdb.Info(ictx, "replication").Result()
		cancel()
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err == nil && strings.Contains(info, "master_link_status:up") {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("not in sync with its primary after %v (INFO: %v %q)", replicaSyncTimeout, err, infoField(info, "master_link_status"))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// infoField returns one field of an INFO reply ("" if absent).
func infoField(info, field string) string {
	for _, line := range strings.Split(info, "\r\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			return v
		}
	}
	return ""
}

// failover promotes node i's replica (the caller holds c.mu) and says
// what happened, or why it could not.
func (c *coord) failover(i int) (string, error) {
	if i >= len(c.replicas) || c.replicas[i] == nil {
		return "", errors.New("the node has no replica")
	}
	old, r := c.servers[i], c.replicas[i]
	behind := c.replOffset(old, "master_repl_offset") - c.replOffset(r, "slave_repl_offset")
	c.replLinks[i].Close() // what the link still holds never reaches the replica
	rdb := redis.NewClient(&redis.Options{Addr: r.Addr(), DialerRetries: 1, MaxRetries: -1})
	defer rdb.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := rdb.SlaveOf(ctx, "NO", "ONE").Err(); err != nil {
		return "", fmt.Errorf("REPLICAOF NO ONE on %s: %w", r.Addr(), err)
	}
	for _, row := range c.links {
		row[i].Repoint(r.Addr())
	}
	oldPID := old.PID()
	c.servers[i], c.replicas[i] = r, nil
	c.retired = append(c.retired, old)
	old.Crash()
	return fmt.Sprintf("replica pid %d promoted with REPLICAOF NO ONE, %d byte(s) of replication stream behind (lost); old primary pid %d SIGKILLed; clients re-pointed; %s",
		r.PID(), behind, oldPID, lockKeyState(ctx, rdb)), nil
}

// lockKeyState says what the promoted node holds under the lock's key:
// nothing, or an owner's value and the time it has left (a key the old
// primary had deleted may survive on a replica that had not yet received
// the delete).
func lockKeyState(ctx context.Context, rdb *redis.Client) string {
	typ, err := rdb.Type(ctx, sim.Key).Result()
	switch {
	case err != nil:
		return "lock key unknown: " + err.Error()
	case typ == "none":
		return "the lock key absent"
	}
	ttl, _ := rdb.PTTL(ctx, sim.Key).Result()
	if typ != "string" {
		return fmt.Sprintf("the lock key held (%s, %v left)", typ, ttl)
	}
	v, _ := rdb.Get(ctx, sim.Key).Result()
	return fmt.Sprintf("the lock key held by %q (%v left)", v, ttl)
}

// replOffset reads a replication offset from INFO (0 if it cannot).
func (c *coord) replOffset(s *Server, field string) int64 {
	rdb := redis.NewClient(&redis.Options{Addr: s.Addr(), DialerRetries: 1, MaxRetries: -1})
	defer rdb.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	info, err := rdb.Info(ctx, "replication").Result()
	if err != nil {
		return 0
	}
	n, _ := strconv.ParseInt(infoField(info, field), 10, 64)
	return n
}

// stopReplicas stops the replication links, the replicas not promoted
// and the primaries replaced (the caller has stopped the clients).
func (c *coord) stopReplicas() []*Server {
	for _, l := range c.replLinks {
		l.Close()
	}
	var out []*Server
	for _, r := range c.replicas {
		if r != nil {
			out = append(out, r)
		}
	}
	return append(out, c.retired...)
}
