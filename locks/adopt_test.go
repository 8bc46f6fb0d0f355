package locks

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// handOffLocker is one of the lockers that keep metadata and hand off.
type handOffLocker interface {
	Locker
	HandOff(l *Lease) (string, error)
	Adopt(ctx context.Context, token string) (*Lease, error)
}

// handOffKinds builds each locker that keeps metadata and hands off, with
// the Inspect kind and name that read its key.
var handOffKinds = []struct {
	name  string
	kind  Kind
	fence bool
	new   func(r Redis, name string, o Options) (handOffLocker, error)
}{
	{"Basic", KindBasic, false, func(r Redis, n string, o Options) (handOffLocker, error) { return NewBasic(r, n, o) }},
	{"Watchdog", KindBasic, false, func(r Redis, n string, o Options) (handOffLocker, error) { return NewWatchdog(r, n, o) }},
	{"Watchdog+Fencing", KindFenced, true, func(r Redis, n string, o Options) (handOffLocker, error) {
		o.Fencing = true
		return NewWatchdog(r, n, o)
	}},
	{"Fenced", KindFenced, true, func(r Redis, n string, o Options) (handOffLocker, error) { return NewFenced(r, n, o) }},
}

// TestMetadata: Options.Metadata is stored with the lock, read by another
// client through Inspect and carried by the lease; the owner checks
// (Release, Extend, a taken-back Options.Token) work on it.
func TestMetadata(t *testing.T) {
	extBoth(t, func(t *testing.T, e *extEnv) {
		ctx := context.Background()
		const meta = "job=42 host=a\x1fand more"
		for _, k := range handOffKinds {
			t.Run(k.name, func(t *testing.T) {
				name := extName(t)
				lk, err := k.new(e.client(t), name, Options{TTL: 10 * time.Second, Metadata: meta})
				if err != nil {
					t.Fatal(err)
				}
				l, err := lk.Acquire(ctx)
				if err != nil {
					t.Fatalf("Acquire = %v", err)
				}
				if l.Metadata != meta {
					t.Errorf("Lease.Metadata = %q, want %q", l.Metadata, meta)
				}
				hs := extInspect(t, e.client(t), name, k.kind).Holders
				if len(hs) != 1 || hs[0].Metadata != meta || hs[0].Token != l.Token {
					t.Fatalf("Inspect's holders = %+v, want one with Metadata %q and the lease's Token", hs, meta)
				}
				if x, ok := lk.(Extender); ok { // Watchdog renews by itself
					if err := x.Extend(ctx, l); err != nil {
						t.Errorf("Extend = %v", err)
					}
				}
				if err := lk.Release(ctx, l); err != nil {
					t.Errorf("Release = %v", err)
				}
				if extInspect(t, e.client(t), name, k.kind).Held() {
					t.Error("the lock is still held after Release")
				}
			})
		}
		t.Run("none", func(t *testing.T) {
			name := extName(t)
			b, err := NewBasic(e.client(t), name, Options{TTL: 10 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			l, err := b.Acquire(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if hs := extInspect(t, e.client(t), name, KindBasic).Holders; len(hs) != 1 || hs[0].Metadata != "" || l.Metadata != "" {
				t.Errorf("without Metadata: holders %+v, lease %q; want none stored", hs, l.Metadata)
			}
		})
		t.Run("Token", func(t *testing.T) {
			name := extName(t)
			o := Options{TTL: 10 * time.Second, Token: "worker-7", Metadata: "v1"}
			b, err := NewBasic(e.client(t), name, o)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := b.Acquire(ctx); err != nil {
				t.Fatal(err)
			}
			again, err := NewBasic(e.client(t), name, o) // the process, restarted
			if err != nil {
				t.Fatal(err)
			}
			l, err := again.Acquire(ctx)
			if err != nil {
				t.Fatalf("Acquire with the same Token and Metadata = %v, want it taken back", err)
			}
			if !strings.HasPrefix(l.Token, "worker-7") || l.Metadata != "v1" {
				t.Errorf("taken-back lease: Token %q, Metadata %q", l.Token, l.Metadata)
			}
		})
	})
}

// TestMetadataRefused: the patterns that do not keep their holder's token
// as the key's value refuse Metadata; an oversized one is refused.
func TestMetadataRefused(t *testing.T) {
	r := extMini(t).client(t)
	o := Options{TTL: time.Second, Metadata: "m"}
	for name, mk := range map[string]func() error{
		"Reentrant": func() error { _, err := NewReentrant(r, "k", o); return err },
		"Service":   func() error { _, err := NewService(r, "k", o); return err },
		"Fair":      func() error { _, err := NewFair(r, "k", o); return err },
		"RWLock":    func() error { _, err := NewRWLock(r, "k", o); return err },
		"Semaphore": func() error { _, err := NewSemaphore(r, "k", 2, o); return err },
		"Redlock":   func() error { _, err := NewRedlock([]Redis{r}, "k", o); return err },
		"MultiLock": func() error { _, err := NewMultiLock(r, []string{"a", "b"}, o); return err },
		"Basic, too long": func() error {
			_, err := NewBasic(r, "k", Options{TTL: time.Second, Metadata: strings.Repeat("x", 4097)})
			return err
		},
	} {
		var oe *OptionError
		if err := mk(); !errors.As(err, &oe) || oe.Field != "Metadata" {
			t.Errorf("%s with Metadata = %v, want an *OptionError on Metadata", name, err)
		}
	}
}

// TestHandOff: a holder hands its holding to another process's Locker by
// token: the giver's lease ends at once (ErrHandedOff, matching
// ErrReleased) and its Release touches nothing; the taker's Adopt sets
// the TTL again and returns a lease of its own with the holding's fencing
// token, released (and, for Watchdog, renewed) as its own. Adopting a
// token the key does not hold is ErrNotHeld and writes nothing.
func TestHandOff(t *testing.T) {
	watchdogEnv(t, func(t *testing.T, e *extEnv) {
		ctx := context.Background()
		const ttl = time.Second
		for _, k := range handOffKinds {
			t.Run(k.name, func(t *testing.T) {
				name := extName(t)
				giverMS, takerMS := &Metrics{}, &Metrics{}
				giver, err := k.new(e.client(t), name, Options{TTL: ttl, Metadata: "from-a", Metrics: giverMS})
				if err != nil {
					t.Fatal(err)
				}
				taker, err := k.new(e.client(t), name, Options{TTL: ttl, Metrics: takerMS})
				if err != nil {
					t.Fatal(err)
				}
				l, err := giver.Acquire(ctx)
				if err != nil {
					t.Fatalf("Acquire = %v", err)
				}
				if _, err := taker.Adopt(ctx, "not-the-token"); !errors.Is(err, ErrNotHeld) {
					t.Errorf("Adopt of a token the key does not hold = %v, want ErrNotHeld", err)
				}
				if _, err := taker.Adopt(ctx, ""); !errors.Is(err, ErrNotHeld) {
					t.Errorf(`Adopt("") = %v, want ErrNotHeld`, err)
				}
				if err := l.Err(); err != nil {
					t.Fatalf("the holder's lease after refused adoptions: Err() = %v", err)
				}
				time.Sleep(ttl / 2) // the TTL runs down: an adoption sets it again
				token, err := giver.HandOff(l)
				if err != nil || token != l.Token {
					t.Fatalf("HandOff = %q, %v; want the lease's token %q", token, err, l.Token)
				}
				if !errors.Is(l.Err(), ErrHandedOff) || !errors.Is(l.Err(), ErrReleased) {
					t.Errorf("the handed-off lease's Err() = %v, want ErrHandedOff (ErrReleased)", l.Err())
				}
				if _, err := giver.HandOff(l); !errors.Is(err, ErrNotHeld) {
					t.Errorf("second HandOff = %v, want ErrNotHeld", err)
				}
				if err := giver.Release(ctx, l); !errors.Is(err, ErrNotHeld) {
					t.Errorf("Release after HandOff = %v, want ErrNotHeld", err)
				}
				got, err := taker.Adopt(ctx, token)
				if err != nil {
					t.Fatalf("Adopt(handed-off token) = %v", err)
				}
				if got.Token != token || got.Fence != l.Fence || got.Metadata != "from-a" {
					t.Errorf("adopted lease: Token %q Fence %d Metadata %q; want %q, %d, %q", got.Token, got.Fence, got.Metadata, token, l.Fence, "from-a")
				}
				if k.fence && got.Fence < 1 {
					t.Errorf("adopted fenced lease has Fence %d", got.Fence)
				}
				hs := extInspect(t, e.client(t), name, k.kind).Holders
				if len(hs) != 1 || hs[0].Token != token || hs[0].TTL <= ttl*3/4 {
					t.Fatalf("holders after Adopt = %+v, want the handed-off token with its TTL set again (%v)", hs, ttl)
				}
				if strings.HasPrefix(k.name, "Watchdog") {
					// real time: the renewals run on the wall clock against a real server (or miniredis on the wall clock)
					time.Sleep(ttl * 5 / 2)
					if err := got.Err(); err != nil {
						t.Fatalf("adopted Watchdog lease %v later: Err() = %v, want renewed", ttl*5/2, err)
					}
				}
				if err := taker.Release(ctx, got); err != nil {
					t.Fatalf("Release(adopted) = %v", err)
				}
				if extInspect(t, e.client(t), name, k.kind).Held() {
					t.Error("the lock is still held after the adopted lease's Release")
				}
				if _, err := taker.Adopt(ctx, token); !errors.Is(err, ErrNotHeld) {
					t.Errorf("Adopt after the release = %v, want ErrNotHeld", err)
				}
				if g, tk := giverMS.Snapshot(), takerMS.Snapshot(); g.Acquired != 1 || g.Released != 1 || g.Lost != 0 || tk.Acquired != 1 || tk.Released != 1 || tk.Attempts != 3 || tk.Failed != 2 {
					t.Errorf("metrics: giver %+v, taker %+v; want 1 grant and 1 release each, the taker's 2 adoptions refused by the key failed (the empty token is refused before anything is sent)", g, tk)
				}
			})
		}
	})
}

// TestAdoptOtherHolder: a token whose key another holder has taken since
// is refused, and that holder's key and TTL are left as they were.
func TestAdoptOtherHolder(t *testing.T) {
	extBoth(t, func(t *testing.T, e *extEnv) {
		ctx, name := context.Background(), extName(t)
		a, err := NewBasic(e.client(t), name, Options{TTL: 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		l, err := a.Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		token, err := a.HandOff(l)
		if err != nil {
			t.Fatal(err)
		}
		if err := e.client(t).Set(ctx, name, "someone-else", 5*time.Second).Err(); err != nil {
			t.Fatal(err)
		}
		if _, err := a.Adopt(ctx, token); !errors.Is(err, ErrNotHeld) {
			t.Errorf("Adopt of a token another holder replaced = %v, want ErrNotHeld", err)
		}
		if hs := extInspect(t, e.client(t), name, KindBasic).Holders; len(hs) != 1 || hs[0].Token != "someone-else" || hs[0].TTL > 5*time.Second {
			t.Errorf("holders after a refused Adopt = %+v, want the other's, its TTL untouched", hs)
		}
	})
}
