// Package fault describes the faults the simulator injects, as plain data:
// what happens (Kind), to whom (Target, or the two sides of a link set),
// when (a true time, or when a client reaches a point of its workload) and
// for how long. The simulator applies them; package scenario reads and
// writes them as text.
//
//	pause c1 on=write for=150ms        client stop-the-world pause (GC)
//	slow c1 on=work for=300ms          the client's own step runs long
//	starve c1 on=acquired for=200ms    the client's watchdog gets no CPU; its workload runs on
//	jump n3 at=1s by=+2s               wall clock step (client or node)
//	drift c1 at=0 rate=-20%            clock rate change (client or node)
//	crash n1 at=1s for=500ms persist=no
//	crash n1 at=1s for=5ms persist=everysec   AOF fsynced once a second: the writes after the last fsync are lost
//	failover n1 on=c1:acquired         promote the replica (async replication; replicas n=2: twice)
//	splitbrain n1 at=1s for=1s old=c1  failover; the old primary stays up for c1, then rejoins as a replica and loses c1's writes
//	pause c1 on=acquired after=30ms for=150ms   30ms after the point is reached
//	partition c1|n1,n2 at=0 for=2s     cut every client–node link across
//	slowlink c1|n1 at=0 for=50ms by=150ms dir=reply
//	loss c1|n1 at=0 for=1s rate=50%
//	pause c* every=exp(1s) for=exp(50ms)          a schedule: GC pauses on every client, drawn over the run
//	crash n1 every=exp(10s) for=uniform(200ms) persist=yes
//	drift c* rate=uniform(±200ppm)                 a drift drawn for each client at t=0
//	jump c1 every=exp(5s) by=uniform(±1s)          clock steps either way
//	blackhole c1|n1 on=c1:renew-sent for=300ms   half-open: requests executed, replies swallowed
//
// A triggered fault (on=[client:]point, n=N for the N-th time) fires when
// the point is reached, before the client goes on (on=acquire-attempt n=N:
// at the N-th attempt of one acquisition, the first that gets that far); after=D fires it D of
// true time later instead, while the client runs on. A clock that starts
// off by some offset is a jump at=0s. A link fault's
// sides may name the protected store, db, as well as nodes.
//
// A schedule (see Schedule) is one line that stands for many faults drawn
// over the run: a wildcard target (c* every client, n* every node),
// every=D|exp(D)|uniform(D) (the gap before the first occurrence, from
// at= or 0, and from the end of each occurrence to the start of the next)
// and drawn values (for=exp(D), for=uniform(D), by=uniform(±D),
// rate=uniform(±R)). Each schedule and target draws from a random stream
// of its own, keyed by the seed and the schedule's text, so adding another
// fault does not move its draws. The simulator expands a schedule into
// plain faults before the run; each has a firing record naming its
// schedule.
package fault

// Point is a place in a client's workload loop where a fault can be
// triggered: it runs acquire → read → work → check → write → release.
type Point string

// Workload points, in loop order.
const (
	Acquired Point = "acquired" // Acquire has just returned a lease
	Work     Point = "work"     // the store was read; work starts
	Write    Point = "write"    // the lease check passed; the write is about to be prepared and sent
	Release  Point = "release"  // the write is done (or abandoned); Release is about to be called
)

// Call points: a request of one kind of call has just been sent, or its
// reply has just arrived and the caller has not yet seen it. Acquire,
// release and extend are the client's own calls of the Locker (a manual
// extension: the workload's extend step); renew is a call from the
// client's background goroutines (the watchdog's renewal); read and write
// are the client's calls of the protected store. n=N counts every request
// of the kind the client sends: acquire-sent n=3 is the third acquire
// attempt of the run (for Redlock, the third request to any node).
const (
	AcquireSent  Point = "acquire-sent"
	AcquireReply Point = "acquire-reply"
	ReleaseSent  Point = "release-sent"
	ReleaseReply Point = "release-reply"
	ExtendSent   Point = "extend-sent"
	ExtendReply  Point = "extend-reply"
	RenewSent    Point = "renew-sent"
	RenewReply   Point = "renew-reply"
	ReadSent     Point = "read-sent"
	ReadReply    Point = "read-reply"
	WriteSent    Point = "write-sent"
	WriteReply   Point = "write-reply"
)

// AcquireAttempt is the start of an attempt of one acquisition: the
// first request of an Acquire call, and each request sent after the
// pattern waited between attempts (its retry backoff: no request of the
// acquisition in flight, and time has passed since the last one ended).
// Unlike the other points, n=N counts within one acquisition: the fault
// fires at the N-th attempt of the client's first acquisition that makes
// N attempts (for Redlock, an attempt is its round of requests to every
// node).
const AcquireAttempt Point = "acquire-attempt"

// Points lists the workload points in loop order, then the call points.
var Points = []Point{Acquired, Work, Write, Release,
	AcquireSent, AcquireReply, ReleaseSent, ReleaseReply, ExtendSent, ExtendReply,
	RenewSent, RenewReply, ReadSent, ReadReply, WriteSent, WriteReply, AcquireAttempt}

// WorkloadPoints lists the workload points alone, in loop order.
var WorkloadPoints = []Point{Acquired, Work, Write, Release}

// CallPoint is the point of a call of kind (acquire, release, extend,
// renew, read, write) whose request was sent (reply false) or whose reply
// arrived (reply true).
func CallPoint(kind string, reply bool) Point {
	if p, ok := callPoints[kind]; ok {
		return p[boolIndex(reply)]
	}
	if reply {
		return Point(kind + "-reply")
	}
	return Point(kind + "-sent")
}

// callPoints are the call points by kind, sent then reply: naming one,
// twice a simulated command, allocates nothing.
var callPoints = map[string][2]Point{
	"acquire": {AcquireSent, AcquireReply}, "release": {ReleaseSent, ReleaseReply},
	"extend": {ExtendSent, ExtendReply}, "renew": {RenewSent, RenewReply},
	"read": {ReadSent, ReadReply}, "write": {WriteSent, WriteReply},
}

func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}

// PointNames is the known points, comma-separated, for error messages.
func PointNames() string {
	s := ""
	for i, p := range Points {
		if i > 0 {
			s += ", "
		}
		s += string(p)
	}
	return s
}

// CallKindNames is the call kinds of the call points (KIND-sent,
// KIND-reply), comma-separated, for error messages.
func CallKindNames() string { return "acquire, release, extend, renew, read, write" }

// ValidPoint reports whether p is a workload point.
func ValidPoint(p Point) bool {
	for _, q := range Points {
		if p == q {
			return true
		}
	}
	return false
}

// Triggers lists the ways a fault is timed, with a one-line summary each,
// for `locksim list`.
var Triggers = []struct{ Name, Summary string }{
	{"at=D", "at true time D from the start of the run"},
	{"on=[cN:]acquired", "when the client's Acquire has just returned a lease"},
	{"on=[cN:]work", "when the client has read the store and starts its work"},
	{"on=[cN:]write", "when the client's lease check passed and it is about to prepare and send its write"},
	{"on=[cN:]release", "when the client's write is done (or abandoned) and it is about to call Release"},
	{"n=N", "with on=: the N-th time the client reaches the point (default 1)"},
	{"after=D", "with on=: D of true time after the point is reached, the client running on meanwhile"},
	{"on=[cN:]KIND-sent", "when a request of the client's call of KIND has just been sent: acquire, release, extend (manual), renew (its background renewal), read or write (the store)"},
	{"on=[cN:]KIND-reply", "when the reply of such a call has arrived, before the caller sees it (acquire-reply, renew-reply, ...)"},
	{"every=D", "a schedule: again and again over the run, D (or a draw: exp(D), uniform(D)) from at= (default 0) to the first occurrence and from the end of each to the start of the next"},
	{"c*, n*", "a schedule on every client or every node, each drawing from its own random stream"},
	{"for=exp(D), for=uniform(D)", "a schedule's duration drawn per occurrence: exponential with mean D, uniform on [0, 2D]"},
	{"by=uniform(±D), rate=uniform(±R)", "a jump's step or a drift's rate drawn per occurrence (per target without every=): uniform on [-D, +D]"},
	{"on=[cN:]acquire-attempt n=N", "when one acquisition of the client starts its N-th attempt (n counts within the acquisition: the first that gets that far), as its request is sent"},
}
