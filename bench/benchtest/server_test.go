package benchtest

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseCommandStats(t *testing.T) {
	info := "# Commandstats\r\n" +
		"cmdstat_evalsha:calls=2,usec=31,usec_per_call=15.50,rejected_calls=0,failed_calls=0\r\n" +
		"cmdstat_script|load:calls=1,usec=7,usec_per_call=7.00,rejected_calls=0,failed_calls=0\r\n" +
		"errorstat_ERR:count=1\r\n"
	got, err := ParseCommandStats(info)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]CommandStat{"evalsha": {Calls: 2, Usec: 31}, "script|load": {Calls: 1, Usec: 7}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("ParseCommandStats mismatch (-want +got):\n%s", d)
	}
	if _, err := ParseCommandStats("cmdstat_get:calls=x,usec=1\r\n"); err == nil {
		t.Error("ParseCommandStats(calls=x) = nil error, want one naming the line")
	}
}

func TestServerCostExecUsec(t *testing.T) {
	// The client sent one SET and one EVALSHA a cycle; the script's own
	// GET and DEL, and a SET of its own, are inside EVALSHA's time.
	c := ServerCost{Cycles: 10,
		Commands: map[string]CommandStat{"evalsha": {10, 50}, "set": {20, 40}, "get": {10, 5}, "del": {10, 5}},
		Sent:     map[string]int64{"evalsha": 10, "set": 10},
	}
	if got, want := c.ExecUsec(), 50.0+20; got != want {
		t.Errorf("ExecUsec() = %v, want %v", got, want)
	}
}

func TestProcessCPU(t *testing.T) {
	if _, ok := processCPU(os.Getpid()); !ok && processCPUSupported {
		t.Fatal("processCPU(own pid) could not read /proc")
	}
	if _, ok := processCPU(-1); ok {
		t.Error("processCPU(-1) = ok, want not readable")
	}
}
