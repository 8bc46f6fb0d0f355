// Package oracle judges a simulated (or real) run of a lock from the
// events its clients and its protected store report, in true time.
//
// The world records each event once and hands it, in order, to every
// oracle of the run (Oracle.Observe); an oracle reads the run only
// through a View (true time, the clients' names, the nodes' keys, the
// pause spans) and reports what it finds to the run's Log. Nothing here
// knows the simulator: real mode's Judge feeds the same safety oracle
// from real processes.
//
//	log := oracle.NewLog(view, nil)
//	run := oracle.List{oracle.NewSafety(view, log, claims), oracle.NewProgress(view, log, claims, ttl, clients)}
//	run.Observe(oracle.Event{Kind: oracle.Granted, Client: 0, Lease: 0})
//	run.End(end)
//
// The oracles, one file each: the safety oracle (safety.go: overlapping
// sections, fencing tokens, the store's lost updates; holders.go counts
// holders under a MaxHolders claim), the progress oracle (progress.go)
// and the loss-signal oracle (loss.go). The package documentation of sim
// says what each judges and why.
package oracle
