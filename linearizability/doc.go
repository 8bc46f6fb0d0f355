// Package linearizability checks recorded histories with porcupine and
// shows the counterexample.
//
// A history.History, written by the simulator or by a real run (package
// realrun), is converted to porcupine operations for the models of package
// model, split into one partition per (model, key), and each partition is
// checked on its own:
//
//   - section ops against model.CounterModel (two overlapping holders lose
//     an update);
//   - read and write ops against model.RegisterModel (a fenced store
//     accepts a write only with a token at least the highest accepted);
//   - acquire, release and extend ops against model.LockModel, only when
//     asked (Options.Models includes Lock): that model assumes no lease
//     expires, which holds in a real run with long TTLs but not under the
//     simulator's faults.
//
// An op whose Return is history.Unknown (reply lost, client crashed, run
// ended) keeps its unknown outcome: it returns at the end of the history,
// and the models let it take effect or not. A check that runs out of time
// is Unknown, its own verdict, never a pass.
//
// # Usage
//
//	rep, err := linearizability.CheckHistory(h, 10*time.Second)
//	if err != nil { ... }            // a malformed history
//	fmt.Print(rep)                   // verdict, partitions, counterexample
//	if rep.Verdict != linearizability.Ok { ... }
//	err = linearizability.WriteViz(f, h, rep) // porcupine's HTML, with h.Events
//
// # Conventions the recorder follows
//
// Clients are numbered from 0 or 1; an op's Client is its row in the
// visualisation, and an event whose Target is "c<N>" is drawn on client N's
// row (pauses, a client's clock jumps, its crash). Other targets ("n1",
// "n1|n2", "") get a row of their own, labelled with the target. A read or
// a section is recorded only once its read returned; a read with OK false
// carries no value and is treated as unknown. A successful acquire carries
// its owner in Token (the owner id of a reentrant lock, the lease's token
// otherwise) and its hold count in Count. To the lock model a refused
// acquire means another owner held the lock; a quorum lock (Redlock) may
// refuse a free lock when the votes split between contenders, so its
// refusals are not recorded for the lock model (realrun leaves them out).
//
// # What the check sees, and where the simulator's oracles see more
//
// The check looks only at what clients observed, so it can agree with the
// simulator's true-time oracles only where a fault leaves a trace in those
// observations:
//
//   - Two holders at one instant (the mutual-exclusion oracle) make the
//     counter illegal only if their sections interleave a read and a write:
//     a stale holder that does not write (it saw its lease lost, or a
//     fencing store rejected it), or two overlapping leases whose sections
//     happen not to overlap, leave a linearizable counter. That is the
//     difference between the Mutex claim (the oracle's, or the lock model's
//     in runs without expiry) and the SafeStore claim (the counter's).
//   - The lock model assumes no lease expires, so under expiry faults it
//     flags every takeover, including the ones a fenced lock is built to
//     survive; it is off by default.
//   - A section with an unknown outcome is assumed atomic: a stale write
//     delayed in the network and applied after a newer one is a lost update
//     the lost-update oracle sees and the counter model may not.
//   - Repeated fencing tokens (a fence counter lost on restart) are legal
//     for the register (tokens must not decrease); they show as lost updates
//     in the counter when both holders write, and always in the
//     fence-monotonicity oracle.
//   - Liveness (stuck clients, acquisition rate) is not a linearizability
//     property: only the oracles report it.
package linearizability
