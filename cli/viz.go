package cli

import (
	"github.com/locksim/locksim/history"
	"github.com/locksim/locksim/internal/report"
)

// writeViz checks h against the counter and register models and writes
// porcupine's HTML visualisation of the check to path, the history's fault
// events (pauses, clock jumps, crashes, partitions) drawn on the timeline.
// It returns the checker's verdict, naming the models that found a
// violation: "illegal (counter)", "ok", "unknown (register)". `run --viz`
// calls it.
func writeViz(path string, h *history.History) (verdict string, err error) {
	rep, err := report.VizFile(path, h, report.DefaultCheckTimeout)
	if err != nil {
		return "", err
	}
	return report.Verdict(rep), nil
}
