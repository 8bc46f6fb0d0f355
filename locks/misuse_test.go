package locks

import (
	"context"
	"errors"
	"testing"
)

// TestExtrasRefuseUnissuedLeases: the fair lock, both sides of the
// read-write lock and the semaphore refuse a nil, zero, hand-built or
// foreign lease with ErrNotHeld, without a panic, and the holder keeps its
// lock.
func TestExtrasRefuseUnissuedLeases(t *testing.T) {
	e := extMini(t)
	ctx := context.Background()
	o := extFastOpts()
	o.Retry.Attempts = 1
	rw := extMust(NewRWLock(e.client(t), "x:rw", o))
	for _, tc := range []struct {
		name       string
		l, another Locker
	}{
		{"Fair", extMust(NewFair(e.client(t), "x:fair", o)), extMust(NewFair(e.client(t), "x:fair", o))},
		{"RWLock.Reader", rw.Reader(), extMust(NewRWLock(e.client(t), "x:rw", o)).Reader()},
		{"RWLock.Writer", extMust(NewRWLock(e.client(t), "x:rw2", o)).Writer(), extMust(NewRWLock(e.client(t), "x:rw2", o)).Writer()},
		{"Semaphore", extMust(NewSemaphore(e.client(t), "x:sem", 1, o)), extMust(NewSemaphore(e.client(t), "x:sem", 1, o))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			held := extAcquire(t, tc.l)
			ext := tc.l.(Extender)
			for what, l := range map[string]*Lease{
				"nil": nil, "zero": {}, "hand-built": {Key: held.Key, Token: held.Token},
			} {
				if err := tc.l.Release(ctx, l); !errors.Is(err, ErrNotHeld) {
					t.Errorf("Release(%s) = %v, want ErrNotHeld", what, err)
				}
				if err := ext.Extend(ctx, l); !errors.Is(err, ErrNotHeld) {
					t.Errorf("Extend(%s) = %v, want ErrNotHeld", what, err)
				}
			}
			if err := tc.another.Release(ctx, held); !errors.Is(err, ErrNotHeld) {
				t.Errorf("Release by another client = %v, want ErrNotHeld", err)
			}
			if err := held.Err(); err != nil {
				t.Errorf("holder's lease.Err() = %v after the refused releases, want nil", err)
			}
			if err := tc.l.Release(ctx, held); err != nil {
				t.Errorf("holder's Release = %v", err)
			}
		})
	}
}
