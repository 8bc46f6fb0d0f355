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
// otherwise) and its hold count in Count.
package linearizability
