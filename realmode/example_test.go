package realmode_test

import (
	"errors"
	"fmt"

	"github.com/locksim/locksim/realmode"
	"github.com/locksim/locksim/sim/scenario"
)

// Supported tells, before any process starts, whether real mode can do
// every fault of a scenario for real: a client's pause is a SIGSTOP of its
// process, but a lost message has no real equivalent on a TCP link.
func ExampleSupported() {
	for _, text := range []string{
		"scenario paused\nstart nodes=1 clients=2 ttl=100ms\npause c1 on=write for=150ms\n",
		"scenario lossy\nstart nodes=1 clients=2 ttl=100ms\nloss c1|n1 at=10ms for=50ms rate=50%\n",
	} {
		sc, err := scenario.ParseString(text)
		if err != nil {
			fmt.Println(err)
			return
		}
		err = realmode.Supported(sc)
		fmt.Printf("%s: refused %v\n", sc.Name, errors.Is(err, realmode.ErrUnsupported))
		if err != nil {
			fmt.Println(err)
		}
	}
	// Output:
	// paused: refused false
	// lossy: refused true
	// realmode: fault not supported for real: scenario lossy: loss (loss c1|n1 at=10ms for=50ms rate=50%): TCP retransmits a lost segment: message loss has no real equivalent on a TCP link short of a black-hole (use a partition)
}

// A Tally's rate is the share of the runs that broke a claim, with its
// 95% Wilson interval; runs whose clients failed count in neither part.
func ExampleTally_Rate() {
	t := realmode.Tally{Runs: 22, Violated: 3, Failed: 2}
	p, lo, hi := t.Rate()
	fmt.Printf("%d of %d runs: %.0f%% (95%% interval %.1f%%–%.1f%%)\n", t.Violated, t.Runs-t.Failed, 100*p, 100*lo, 100*hi)
	// Output:
	// 3 of 20 runs: 15% (95% interval 5.2%–36.0%)
}
