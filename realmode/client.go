package realmode

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"time"

	"github.com/locksim/locksim/clock"
	"github.com/locksim/locksim/history"
	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/sim/fault"
	"github.com/locksim/locksim/sim/scenario"
	"github.com/redis/go-redis/v9"
)

// errStop ends a client whose run is over.
var errStop = errors.New("realmode: the run is over")

// ClientMain is the whole of a client process: it reads its Setup from
// stdin, builds its lock (a subject of extra, or else a catalog
// pattern), runs the workload loop until the coordinator says stop,
// and returns the exit status. Messages go to fd 3. With
// LOCKSIM_REAL_DESCRIBE=name in the environment it prints that pattern's
// description instead (see Describe).
func ClientMain(extra ...Subject) int {
	redis.SetLogger(quietLogger{}) // a node down on purpose is not news
	if name := os.Getenv(describeEnv); name != "" {
		return describe(os.Stdout, extra, name)
	}
	out := os.NewFile(3, "locksim-real-events")
	if out == nil {
		fmt.Fprintln(os.Stderr, "realmode: client: fd 3 (the coordinator's pipe) is not open")
		return 2
	}
	err := runClient(newConn(os.Stdin, out), extra)
	if err == nil || errors.Is(err, errStop) || errors.Is(err, io.EOF) {
		return 0
	}
	fmt.Fprintln(os.Stderr, "realmode: client:", err)
	return 1
}

// worker is one client process's state.
type worker struct {
	c      *conn
	setup  Setup
	locker Lock
	clk    *jumpClock // the process's time: the lock's and the workload's sleeps
	rng    *rand.Rand
	nodes  []*redis.Client
	watch  *watcher
}

func runClient(c *conn, extra []Subject) error {
	var s Setup
	if err := c.recv(&s); err != nil {
		return fmt.Errorf("read setup: %w", err)
	}
	w := &worker{c: c, setup: s, rng: rand.New(rand.NewPCG(s.Seed, uint64(s.Index)+1))}
	defer w.close()
	if err := w.build(extra); err != nil {
		_ = c.send(Msg{Kind: msgFatal, Err: err.Error()})
		return err
	}
	if _, err := w.ask(Msg{Kind: msgReady, Protocol: ProtocolVersion}); err != nil {
		return err
	}
	w.watch = newWatcher(c)
	defer w.watch.close()
	for {
		if err := w.cycle(); err != nil {
			return err
		}
	}
}

func (w *worker) build(extra []Subject) error {
	if w.setup.Protocol != ProtocolVersion {
		return fmt.Errorf("setup: protocol version %d, this client speaks %d", w.setup.Protocol, ProtocolVersion)
	}
	p, err := findSubject(extra, w.setup.Pattern)
	if err != nil {
		return err
	}
	for _, a := range w.setup.Addrs {
		w.nodes = append(w.nodes, redis.NewClient(&redis.Options{Addr: a, DialerRetries: 1, MaxRetries: -1,
			ReadTimeout: w.setup.Timeout, WriteTimeout: w.setup.Timeout, ContextTimeoutEnabled: true}))
	}
	w.clk = &jumpClock{Clock: clock.Real{}}
	if w.setup.DriftPPM != 0 {
		w.clk.Clock = newDriftClock(w.setup.DriftPPM)
	}
	opts := scenario.Scenario{TTL: w.setup.TTL, Workload: w.setup.Workload, Pattern: w.setup.Options}.LockOptions()
	opts.Clock = w.clk
	opts.Rand = locks.NewSeededRand(w.setup.Seed^uint64(w.setup.Index+1)*0x9e3779b97f4a7c15, w.setup.Name)
	if w.locker, err = p.New(w.nodes, w.setup.Key, opts); err != nil {
		return fmt.Errorf("pattern %s with %d nodes: %w", p.Name, len(w.nodes), err)
	}
	return nil
}

func (w *worker) close() {
	for _, n := range w.nodes {
		_ = n.Close()
	}
}

// ask sends m and waits for the reply; a Stop reply is errStop.
func (w *worker) ask(m Msg) (Reply, error) {
	if err := w.c.send(m); err != nil {
		return Reply{}, err
	}
	var r Reply
	if err := w.c.recv(&r); err != nil {
		return r, err
	}
	if r.Stop {
		return r, errStop
	}
	if r.Jump != 0 {
		w.clk.jump(r.Jump)
	}
	return r, nil
}

// cycle is one critical section, as the simulator's client runs it.
func (w *worker) cycle() error {
	wl := w.setup.Workload
	lease, id, err := w.acquire()
	if err != nil || lease == nil {
		return errors.Join(err, w.sleep(wl.Think))
	}
	if err := w.at(fault.Acquired); err != nil {
		return err
	}
	inner, innerID, err := w.enter()
	if err != nil {
		return err
	}
	if wl.Reenter && (inner == nil || lease.Err() != nil) {
		return w.abandon(lease, id, inner, innerID)
	}
	v, err := w.read(lease, id)
	if err != nil {
		return err
	}
	if err := w.steps(fault.Work, w.workTime()); err != nil {
		return err
	}
	if inner != nil {
		if err := w.release(inner, innerID); err != nil {
			return err
		}
	}
	if err := w.guardedWrite(lease, id, v); err != nil {
		return err
	}
	return w.finish(lease, id)
}

// abandon gives back a section whose nested entry failed or outlasted
// the lease, as a careful user does.
func (w *worker) abandon(lease Lease, id int, inner Lease, innerID int) error {
	if inner != nil {
		if err := w.release(inner, innerID); err != nil {
			return err
		}
	}
	return w.finish(lease, id)
}

func (w *worker) finish(lease Lease, id int) error {
	if err := w.at(fault.Release); err != nil {
		return err
	}
	if err := w.release(lease, id); err != nil {
		return err
	}
	return w.sleep(w.setup.Workload.Think)
}

func (w *worker) guardedWrite(lease Lease, id int, v int64) error {
	if w.setup.Workload.Check {
		held := lease.Err() == nil
		if _, err := w.ask(Msg{Kind: msgCheck, Lease: id, OK: held}); err != nil || !held {
			return err
		}
	}
	if err := w.steps(fault.Write, w.setup.Workload.Prep); err != nil {
		return err
	}
	_, err := w.ask(Msg{Kind: msgWrite, Lease: id, Fence: lease.Fence(), Read: v, Value: v + 1})
	return err
}

// steps marks point p, then spends d.
func (w *worker) steps(p fault.Point, d time.Duration) error {
	if err := w.at(p); err != nil {
		return err
	}
	return w.sleep(d)
}

// at reports workload point p and spends the slowness the coordinator
// asks for (a slow fault: a real sleep in the workload).
func (w *worker) at(p fault.Point) error {
	r, err := w.ask(Msg{Kind: msgPoint, Point: string(p)})
	if err != nil {
		return err
	}
	return w.sleep(r.Slow)
}

// sleep spends d on the process's clock (a drifting clock stretches it).
func (w *worker) sleep(d time.Duration) error {
	return w.clk.Sleep(context.Background(), d)
}

func (w *worker) workTime() time.Duration {
	wl := w.setup.Workload
	if wl.Jitter <= 0 {
		return wl.Work
	}
	return wl.Work - wl.Jitter + time.Duration(w.rng.Int64N(int64(2*wl.Jitter)+1))
}

// enter takes the lock a second time, nested, when the workload re-enters.
func (w *worker) enter() (Lease, int, error) {
	if !w.setup.Workload.Reenter {
		return nil, 0, nil
	}
	return w.acquire()
}

// acquire announces, calls and reports one Acquire; a nil lease means not
// acquired.
func (w *worker) acquire() (Lease, int, error) {
	if _, err := w.ask(Msg{Kind: msgInvoke, Op: history.Acquire}); err != nil {
		return nil, 0, err
	}
	ctx, cancel := w.clk.WithTimeout(context.Background(), w.setup.Workload.AcquireTimeout)
	lease, err := w.locker.Acquire(ctx)
	cancel()
	m := outcome(history.Acquire, err)
	if err == nil {
		m.Token, m.Fence, m.Count, m.Mode = lease.Token(), lease.Fence(), lease.Count(), mode(lease)
		if k, ok := lease.(interface{ Key() string }); ok && k.Key() != w.setup.Key {
			m.Key = k.Key()
		}
	}
	r, aerr := w.ask(m)
	if aerr != nil || err != nil {
		return nil, 0, aerr
	}
	w.watch.watch(r.Lease, lease)
	return lease, r.Lease, nil
}

func (w *worker) release(lease Lease, id int) error {
	w.watch.releasing(id) // a loss from here on is told by Release's error
	if _, err := w.ask(Msg{Kind: msgInvoke, Op: history.Release, Lease: id}); err != nil {
		return err
	}
	ctx, cancel := w.clk.WithTimeout(context.Background(), w.setup.Workload.AcquireTimeout)
	err := w.locker.Release(ctx, lease)
	cancel()
	m := outcome(history.Release, err)
	m.Token, m.Mode = lease.Token(), mode(lease)
	_, err = w.ask(m)
	return err
}

func (w *worker) read(lease Lease, id int) (int64, error) {
	r, err := w.ask(Msg{Kind: msgRead, Lease: id, Fence: lease.Fence()})
	return r.Value, err
}

// outcome is the return message of op that ended with err.
func outcome(op string, err error) Msg {
	m := Msg{Kind: msgReturn, Op: op, OK: err == nil}
	if err != nil {
		m.Err, m.Unknown = err.Error(), unknownOutcome(err)
	}
	return m
}

// unknownOutcome reports whether a failed call may still have taken
// effect: it timed out (the request may have been executed). A refusal,
// or a connection that was refused outright, is a known failure.
func unknownOutcome(err error) bool {
	if err == nil || errors.Is(err, locks.ErrNotAcquired) || errors.Is(err, locks.ErrQuorum) {
		return false
	}
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}

func mode(l Lease) string {
	if l.Shared() {
		return history.ModeRead
	}
	return ""
}

// quietLogger drops go-redis's internal log lines (dial retries of a node
// that is down on purpose); errors reach the coordinator as outcomes.
type quietLogger struct{}

func (quietLogger) Printf(context.Context, string, ...any) {}
