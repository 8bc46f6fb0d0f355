package sim

import (
	"syscall"
	"testing"
	"time"

	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/scenario"
)

// BenchmarkSteady runs the steady scenario (5 clients, 30 simulated
// seconds, no faults) once per iteration, per pattern, and reports
// seeds/min (runs per minute of real time) and simulated Redis commands
// per second of real time.
func BenchmarkSteady(b *testing.B) {
	for _, p := range pattern.All() {
		b.Run(p.Name, func(b *testing.B) {
			s, err := scenario.Lookup("steady", p.Nodes)
			if err != nil {
				b.Fatal(err)
			}
			benchRuns(b, p, s)
		})
	}
}

// BenchmarkFaults runs each built-in fault scenario (1–4 simulated
// seconds) for the six core patterns.
func BenchmarkFaults(b *testing.B) {
	for _, name := range []string{"basic", "reentrant", "watchdog", "service", "fenced", "redlock"} {
		p, err := pattern.Lookup(name)
		if err != nil {
			b.Fatal(err)
		}
		for _, bi := range scenario.Builtins() {
			if bi.Name == "steady" {
				continue
			}
			b.Run(name+"/"+bi.Name, func(b *testing.B) {
				s, err := bi.Scenario(p.Nodes)
				if err != nil {
					b.Fatal(err)
				}
				benchRuns(b, p, s)
			})
		}
	}
}

// benchRuns also reports CPU time per run (user+system, of the whole
// process), which is steadier than wall time on a shared machine, and
// seeds per CPU-minute.
func benchRuns(b *testing.B, p pattern.Pattern, s scenario.Scenario) {
	var seed uint64
	commands := 0
	cpu0 := cpuTime()
	start := time.Now()
	for b.Loop() {
		seed++
		res, err := Run(Config{Pattern: p, Scenario: s, Seed: seed})
		if err != nil {
			b.Fatal(err)
		}
		commands += res.Stats.Commands
	}
	elapsed := time.Since(start).Seconds()
	cpu := (cpuTime() - cpu0).Seconds()
	b.ReportMetric(cpu*1000/float64(seed), "cpu-ms/run")
	b.ReportMetric(float64(seed)*60/cpu, "seeds/cpu-min")
	b.ReportMetric(float64(seed)*60/elapsed, "seeds/min")
	b.ReportMetric(float64(commands)/elapsed, "cmds/s")
	b.ReportMetric(float64(commands)/float64(seed), "cmds/run")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
