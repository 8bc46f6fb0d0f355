// Package advise is the situation model and the one rule engine behind
// every surface that recommends a lock: `locksim advise` and the decision
// table that opens the report.
//
// A Situation is what a team knows of its system: what a double run
// costs, the Redis deployment, pauses against the TTL, how long the work
// lasts, whether clocks jump, and how the resource is accessed. Evidence
// is the simulator's measurements as the report writes them beside itself
// (evidence.json): per pattern and scenario, the seeds in which each
// oracle finding occurred. Answer applies the rules to both: the
// scenarios that model the situation, the candidates its deployment and
// access allow, the one finding that counts there (a double run, a lost
// update, an excess holder or a stall — never several pooled), each
// candidate judged per scenario by its worst one, never pooled over
// scenarios. The same situation and evidence give the same Answer, byte
// for byte once encoded.
//
// The package imports nothing of the report: the report converts its
// measurements into Evidence, so the report calls the engine and the
// engine never calls the report.
package advise
