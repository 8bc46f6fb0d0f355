// Package simcheck holds the agreement test between the linearizability
// checker and the simulator's oracles: every built-in scenario is run with
// every pattern of the registry, correct and broken, and each history's
// verdicts (counter, register and, where no lease expires, lock models)
// are compared with what the oracles measured in true time. The rules the
// two must obey, and every class of legitimate disagreement, are written
// in sim_agreement_test.go; the package has no other code.
//
//	go test ./linearizability/simcheck/                      # seed 1, the quick table
//	go test ./linearizability/simcheck/ -simcheck.sweep -v   # seeds 1..5, steady included
package simcheck
