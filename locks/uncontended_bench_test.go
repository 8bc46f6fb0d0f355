package locks

import (
	"context"
	"testing"
	"time"
)

// BenchmarkExtrasUncontended measures one client's Acquire+Release of the
// fair lock, both sides of the read-write lock and the semaphore against a
// real redis-server, beside Basic as the floor.
func BenchmarkExtrasUncontended(b *testing.B) {
	e := extReal(b)
	r := e.client(b)
	o := Options{TTL: 10 * time.Second}
	rw, _ := NewRWLock(r, "bench-rw", o)
	cases := []struct {
		name string
		l    Locker
	}{
		{"basic", extMust(NewBasic(r, "bench-basic", o))},
		{"fair", extMust(NewFair(r, "bench-fair", o))},
		{"rwlock-read", rw.Reader()},
		{"rwlock-write", rw.Writer()},
		{"semaphore", extMust(NewSemaphore(r, "bench-sem", 2, o))},
	}
	ctx := context.Background()
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				l, err := c.l.Acquire(ctx)
				if err != nil {
					b.Fatal(err)
				}
				if err := c.l.Release(ctx, l); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
