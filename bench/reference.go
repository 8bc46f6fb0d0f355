package bench

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/locksim/locksim/locks/scripts"
	"github.com/redis/go-redis/v9"
)

// releaseScript is the owner-checked release every reference uses: the same
// Lua the patterns run, so the references differ from them only in the Go
// code around the round trips.
var releaseScript = redis.NewScript(scripts.All()["release"])

// errNotHeld is a reference's release that found the lock gone.
var errNotHeld = errors.New("bench: lock not held at release")

// tokens issues unique owner tokens cheaply: a random per-client prefix and
// a counter.
type tokens struct {
	prefix []byte
	n      uint64
}

func newTokens() *tokens {
	var b [8]byte
	_, _ = crand.Read(b[:])
	return &tokens{prefix: append(hex.AppendEncode(nil, b[:]), '-')}
}

func (t *tokens) next() string {
	t.n++
	return string(strconv.AppendUint(t.prefix, t.n, 10))
}

// FloorSubject is the floor: SET key token NX PX ttl, then the owner-checked
// Lua release, on the client the patterns use, with nothing else. One
// attempt per Acquire: on a hot key the runner's immediate retry makes it
// the tight retry loop.
func FloorSubject() Subject {
	return Subject{
		Name: "floor", Kind: KindFloor, Family: Single, Holders: 1,
		Summary: "hand-written SET NX PX + Lua owner-checked release, one attempt per call",
		New: func(c Conn, key string) (Locker, error) {
			return &floor{r: c.Nodes[0], key: key, ttl: c.TTL, tok: newTokens()}, nil
		},
	}
}

type floor struct {
	r   *redis.Client
	key string
	ttl time.Duration
	tok *tokens
}

type floorHeld struct {
	f     *floor
	token string
}

func (f *floor) Acquire(ctx context.Context) (Held, error) {
	token := f.tok.next()
	ok, err := f.r.SetNX(ctx, f.key, token, f.ttl).Result()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, ErrBusy
	}
	return floorHeld{f, token}, nil
}

func (h floorHeld) Release(ctx context.Context) error {
	n, err := releaseScript.Run(ctx, h.f.r, []string{h.f.key}, h.token).Int64()
	if err == nil && n == 0 {
		err = errNotHeld
	}
	return err
}

// FanOutSubject is the hand-written Redlock: SET NX PX on every node at once
// (a goroutine per node), a majority within the validity wins, otherwise
// release everywhere and retry after an exponential backoff with jitter
// (10ms doubling to 160ms, as the locks package's default), until the
// context ends.
func FanOutSubject() Subject {
	return Subject{
		Name: "fanout", Kind: KindReference, Family: Quorum, Holders: 1,
		Summary: "hand-written parallel Redlock: SET NX PX to all nodes at once, quorum, Lua release everywhere",
		New: func(c Conn, key string) (Locker, error) {
			return &fanOut{nodes: c.Nodes, key: key, ttl: c.TTL, quorum: len(c.Nodes)/2 + 1,
				tok: newTokens(), retries: c.Retries}, nil
		},
	}
}

type fanOut struct {
	nodes   []*redis.Client
	key     string
	ttl     time.Duration
	quorum  int
	tok     *tokens
	retries *Counter
}

type fanOutHeld struct {
	f     *fanOut
	token string
}

func (f *fanOut) Acquire(ctx context.Context) (Held, error) {
	delay := 10 * time.Millisecond
	for {
		h, err := f.try(ctx)
		if err == nil || !errors.Is(err, ErrBusy) || ctx.Err() != nil {
			return h, err
		}
		f.retries.Inc()
		t := time.NewTimer(delay/2 + rand.N(delay/2))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
		delay = min(2*delay, 160*time.Millisecond)
	}
}

func (f *fanOut) try(ctx context.Context) (Held, error) {
	token := f.tok.next()
	start := time.Now()
	nctx, cancel := context.WithTimeout(ctx, f.ttl/10) // bound every node's reply
	defer cancel()
	oks := f.each(func(r *redis.Client) bool {
		ok, err := r.SetNX(nctx, f.key, token, f.ttl).Result()
		return err == nil && ok
	})
	drift := f.ttl/100 + 2*time.Millisecond
	if oks >= f.quorum && f.ttl-time.Since(start)-drift > 0 {
		return fanOutHeld{f, token}, nil
	}
	f.release(context.WithoutCancel(ctx), token)
	return nil, ErrBusy
}

// each runs op on every node in parallel and counts the trues.
func (f *fanOut) each(op func(*redis.Client) bool) int {
	if len(f.nodes) == 1 {
		if op(f.nodes[0]) {
			return 1
		}
		return 0
	}
	var n atomic.Int64
	var wg sync.WaitGroup
	for _, r := range f.nodes {
		wg.Go(func() {
			if op(r) {
				n.Add(1)
			}
		})
	}
	wg.Wait()
	return int(n.Load())
}

func (f *fanOut) release(ctx context.Context, token string) int {
	return f.each(func(r *redis.Client) bool {
		n, err := releaseScript.Run(ctx, r, []string{f.key}, token).Int64()
		return err == nil && n == 1
	})
}

func (h fanOutHeld) Release(ctx context.Context) error {
	if h.f.release(ctx, h.token) == 0 {
		return errNotHeld
	}
	return nil
}
