// Package model holds what locksim's lock patterns promise, in two forms.
//
// # Porcupine models
//
// Sequential specifications for github.com/anishathalye/porcupine, pure
// functions over comparable states, each with Describe functions for the
// HTML visualisation and a Partition function that splits a history by key:
//
//   - CounterModel: the protected counter. Each critical section (read v, then
//     write v+1) is one atomic operation; two holders whose sections
//     overlap in true time produce a history that is not linearizable.
//   - RegisterModel: the fenced register, a store that accepts a write only if
//     its fencing token is at least the highest it has accepted. The
//     recorded accepted/rejected outcome is checked against that rule.
//   - LockModel: the lock's own API by owner (acquire, re-acquire with a hold
//     count, release, extend) for runs in which no lease expires. It covers
//     the plain, reentrant and service patterns.
//   - AllModel: the three together, dispatching on the input's type and
//     partitioning by (model, key), so one check covers a whole history.
//
// # Unknown outcomes
//
// Porcupine has no notion of an operation whose reply was lost. Here such
// an operation has Unknown set in its output and its Return placed at (or
// after) the end of the history. Its step never fails: it applies the
// operation's effect where the state allows it and leaves the state alone
// otherwise. That is enough to allow both outcomes: an operation whose
// Return is the end of the history may be linearized after every other
// operation, where its effect can no longer be observed, so "it never took
// effect" is always one of the linearizations the checker explores.
//
// # Reference models
//
// Plain Go values that execute what each pattern promises, for property
// tests that compare a real lock with the model step by step: Lock (a
// single-node lease lock, optionally reentrant and fenced, with its own
// virtual time), Quorum (Redlock over N such nodes) and FencedStore (the
// store that checks fencing tokens).
//
// Package model imports no Redis client and no simulator: it is pure.
package model
