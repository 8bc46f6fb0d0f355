package network

import (
	"context"
	"fmt"
	"time"

	"github.com/locksim/locksim/sim/sched"
)

// Message is a request or reply; Describe renders it for the trace.
type Message interface{ Describe() string }

// Endpoint is a server: a Redis node or the protected store.
type Endpoint struct {
	Name string
	// Up reports whether the endpoint accepts requests (nil: always).
	Up func() bool
	// Handle executes a request when it arrives and returns the reply.
	Handle func(client int, req Message) Message
	// Defer, if set, is offered each request first: it returns true if it
	// takes the request as a blocking command, and then calls reply once,
	// at any later event, with the reply to send back or the error the
	// caller gets (or never, if the connection died with the server).
	Defer func(client int, req Message, reply func(Message, error)) bool
	// MayDefer, if set, tells the requests Defer may take from those it
	// never takes, so that the others skip it (and the reply func made
	// for it); nil offers Defer every request.
	MayDefer func(req Message) bool
}

// CallRecord describes one finished call, for observers.
type CallRecord struct {
	Client, Endpoint int
	Req, Resp        Message // Resp is nil when the call failed
	Err              error
	Call, Return     int64 // true time; Return is when the caller resumed
}

// Stats counts what the network did.
type Stats struct {
	Calls    int // calls made
	Messages int // messages sent (requests and replies)
	Dropped  int // messages lost or cut by a partition
	Late     int // replies that arrived after their call gave up
	Timeouts int // calls that ended on the client-side timeout
	Refused  int // requests that found their endpoint down
	Holed    int // replies a black hole took (also counted in Dropped)
}

// Net is the simulated network.
type Net struct {
	s       *sched.Sched
	seed    uint64
	clients []*sched.Proc
	eps     []*Endpoint
	links   [][]*Link
	lat     Latency

	// Timeout is the client-side read timeout (default 3s, go-redis's).
	Timeout time.Duration
	// Trace, if set, receives one line per message event.
	Trace func(line string)
	// Observe, if set, is told of every finished call.
	Observe func(CallRecord)
	// Sent, if set, is called by the calling G right after a request of
	// client c has been sent to endpoint e, and Received right after its
	// reply arrived, before the caller sees it: the points where a fault
	// can hit a call between its send and its reply.
	Sent, Received func(c, e int, g *sched.G)

	stats Stats
}

// New returns a network whose links draw latencies from seed.
func New(s *sched.Sched, seed uint64, lat Latency) *Net {
	return &Net{s: s, seed: seed, lat: lat, Timeout: 3 * time.Second}
}

// AddClient registers a client process and returns its index.
func (n *Net) AddClient(p *sched.Proc) int {
	n.clients = append(n.clients, p)
	return len(n.clients) - 1
}

// AddEndpoint registers a server and returns its index.
func (n *Net) AddEndpoint(e *Endpoint) int {
	n.eps = append(n.eps, e)
	return len(n.eps) - 1
}

// Link returns the link between client c and endpoint e, creating it with
// the default latency on first use.
func (n *Net) Link(c, e int) *Link {
	for len(n.links) <= c {
		n.links = append(n.links, nil)
	}
	for len(n.links[c]) <= e {
		n.links[c] = append(n.links[c], nil)
	}
	if n.links[c][e] == nil {
		n.links[c][e] = newLink(n.seed, c, e, n.lat)
	}
	return n.links[c][e]
}

// Stats returns the counters so far.
func (n *Net) Stats() Stats { return n.stats }

// ClientName and EndpointName name the ends in traces and errors.
func (n *Net) ClientName(c int) string   { return n.clients[c].Name() }
func (n *Net) EndpointName(e int) string { return n.eps[e].Name }

func (n *Net) tracef(format string, a ...any) {
	if n.Trace != nil {
		n.Trace(fmt.Sprintf(format, a...))
	}
}

// traceMsg traces one message on link l; the text is built only when
// tracing is on. arrow is "→" (request) or "←" (reply).
func (n *Net) traceMsg(l *Link, arrow string, m Message, note string) {
	if n.Trace == nil {
		return
	}
	line := n.ClientName(l.Client) + arrow + n.EndpointName(l.Endpoint) + " " + m.Describe()
	if note != "" {
		line += " (" + note + ")"
	}
	n.Trace(line)
}

type reply struct {
	msg Message
	err error
}

// call is one call in flight: its request, where its reply goes, and the
// reply once made. Its events (arrive, back) and its timeout (as a
// callTimer) are scheduled as the call itself, so that a call costs one
// allocation instead of a closure per event.
type call struct {
	n        *Net
	l        *Link
	req      Message
	w        sched.Waker
	r        reply
	back     bool // the next event is the reply's arrival (else the request's)
	returned bool // the caller has resumed from the call
	sent     int64
	timeout  time.Duration
}

// Run is the call's next event: the request arrives at the endpoint, or
// its reply back at the caller.
func (c *call) Run() {
	if c.back {
		c.n.back(c)
		return
	}
	c.n.arrive(c)
}

// callTimer is a call's client-side timeout, as an event.
type callTimer call

// Run fails the call with a TimeoutError, unless it is over. A call that
// is not over though nothing can wake it any more (its caller parked
// elsewhere) would outlive its read timeout for ever: the run fails with
// a simulator defect instead of reporting the caller as a stuck client.
func (t *callTimer) Run() {
	n := t.n
	switch {
	case !t.w.Stale():
		n.stats.Timeouts++
		t.w.Wake(nil, &TimeoutError{n.ClientName(t.l.Client), n.EndpointName(t.l.Endpoint)})
	case !t.returned && t.w.Orphaned():
		n.s.Fail(fmt.Errorf("%w: %s's call %s to %s, sent at t=%.6fs, outlived its read timeout (%v): its goroutine is parked where nothing will wake it",
			sched.ErrDefect, t.w.G().Name(), t.req.Describe(), n.EndpointName(t.l.Endpoint), float64(t.sent)/1e9, t.timeout))
	}
}

// Call sends req from client c to endpoint e and parks the calling G until
// the reply arrives, ctx is done, or the client-side timeout passes. It must
// be called from a G of client c.
func (n *Net) Call(ctx context.Context, c, e int, req Message) (Message, error) {
	return n.CallTimeout(ctx, c, e, req, n.Timeout)
}

// CallTimeout is Call with its own client-side timeout (a blocking command
// extends the read deadline by how long it may block).
func (n *Net) CallTimeout(ctx context.Context, c, e int, req Message, timeout time.Duration) (Message, error) {
	g := n.caller(c)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if n.s.Stopping() {
		return nil, sched.ErrStopped
	}
	rec := CallRecord{Client: c, Endpoint: e, Req: req, Call: n.s.Now()}
	n.stats.Calls++
	cl := &call{n: n, l: n.Link(c, e), req: req, w: g.Waker(), sent: rec.Call, timeout: timeout}
	sched.Watch(ctx, cl.w)
	n.armTimeout(cl, timeout)
	n.send(cl)
	if n.Sent != nil {
		n.Sent(c, e, g) // may Yield: the Waker survives it (sched.G.Yield)
	}
	v, err := g.Park()
	cl.returned = true
	if err == nil && n.Received != nil {
		n.Received(c, e, g)
	}
	rec.Return = n.s.Now()
	if err == nil {
		r := v.(*reply)
		rec.Resp, err = r.msg, r.err
	}
	rec.Err = err
	n.finish(rec)
	return rec.Resp, err
}

// caller returns the running G, which must belong to client c.
func (n *Net) caller(c int) *sched.G {
	g := n.s.Current()
	if g == nil || g.Proc() != n.clients[c] {
		panic(fmt.Sprintf("network: call from %s is not from a goroutine of %s", gName(g), n.ClientName(c)))
	}
	return g
}

// armTimeout fails the call with a TimeoutError after the client-side
// timeout, measured on the client's clock.
func (n *Net) armTimeout(cl *call, timeout time.Duration) {
	n.s.AtRun(n.s.Now()+n.clients[cl.l.Client].Clock().TrueFor(timeout), (*callTimer)(cl))
}

// finish traces a failed call and tells the observer.
func (n *Net) finish(rec CallRecord) {
	if rec.Err != nil && rec.Err != sched.ErrStopped && n.Trace != nil {
		n.tracef("%s→%s %s: %v", n.ClientName(rec.Client), n.EndpointName(rec.Endpoint), rec.Req.Describe(), rec.Err)
	}
	if n.Observe != nil {
		n.Observe(rec)
	}
}

func gName(g *sched.G) string {
	if g == nil {
		return "the scheduler"
	}
	return g.Name()
}

// send puts the call's request on the wire towards its endpoint.
func (n *Net) send(cl *call) {
	l := cl.l
	n.stats.Messages++
	if l.Cut() || l.lost() {
		n.stats.Dropped++
		n.traceMsg(l, "→", cl.req, "lost")
		return
	}
	n.traceMsg(l, "→", cl.req, "")
	n.s.AtRun(n.s.Now()+l.delay(Request), cl)
}

// arrive executes the request at the endpoint and sends the reply back.
func (n *Net) arrive(cl *call) {
	l := cl.l
	if l.Cut() {
		n.stats.Dropped++
		n.traceMsg(l, "→", cl.req, "cut in flight")
		return
	}
	ep := n.eps[l.Endpoint]
	switch {
	case ep.Up != nil && !ep.Up():
		n.stats.Refused++
		cl.r.err = &RefusedError{n.ClientName(l.Client), ep.Name}
	case ep.Defer != nil && (ep.MayDefer == nil || ep.MayDefer(cl.req)) && ep.Defer(l.Client, cl.req, cl.deferred):
		return
	default:
		cl.r.msg = ep.Handle(l.Client, cl.req)
	}
	n.reply(cl)
}

// deferred sends back the reply (or error) of a blocking command, naming
// the client in a ResetError.
func (cl *call) deferred(m Message, err error) {
	switch e := err.(type) {
	case *ResetError:
		if e.Client == "" {
			e.Client = cl.n.ClientName(cl.l.Client)
		}
	case *ClosedError:
		if e.Client == "" {
			e.Client = cl.n.ClientName(cl.l.Client)
		}
	}
	cl.r = reply{msg: m, err: err}
	cl.n.reply(cl)
}

// reply sends the call's reply back over its link towards the caller.
func (n *Net) reply(cl *call) {
	l, r := cl.l, &cl.r
	n.stats.Messages++
	if n.swallowed(l, r, "black-holed") {
		return
	}
	if l.Cut() || l.lost() {
		n.stats.Dropped++
		n.traceMsg(l, "←", r, "lost")
		return
	}
	cl.back = true
	n.s.AtRun(n.s.Now()+l.delay(Reply), cl)
}

// back delivers a reply to the caller, unless the call has given up.
func (n *Net) back(cl *call) {
	l, r, w := cl.l, &cl.r, cl.w
	switch {
	case n.swallowed(l, r, "black-holed in flight"):
	case l.Cut():
		n.stats.Dropped++
		n.traceMsg(l, "←", r, "cut in flight")
	case w.Stale():
		n.stats.Late++
		n.traceMsg(l, "←", r, "late: the call gave up")
	default:
		n.traceMsg(l, "←", r, "")
		w.Wake(r, nil)
	}
}

func (r *reply) Describe() string {
	if r.err != nil {
		return r.err.Error()
	}
	return r.msg.Describe()
}
