package redisserver

import (
	"context"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// TestServerPortsOutsideTheEphemeralRange: a server's port is picked
// below the kernel's ephemeral range, where no outgoing connection or
// port-0 listener can take it between the pick and the bind (or a crash
// and the restart), and never twice at once in one process. Before, the
// port came from a port-0 listener, inside that range, and `make real`
// ended on "port N is taken" twice in one cell.
func TestServerPortsOutsideTheEphemeralRange(t *testing.T) {
	lo := 32768
	if b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		if f := strings.Fields(string(b)); len(f) == 2 {
			lo, _ = strconv.Atoi(f[0])
		}
	}
	const n = 64
	got := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			p, err := pickServerPort()
			if err != nil {
				t.Error(err)
			}
			got[i] = p
		})
	}
	wg.Wait()
	seen := map[int]bool{}
	for _, p := range got {
		if p >= lo || p <= 0 || seen[p] {
			t.Errorf("port %d: want distinct ports below the ephemeral range (from %d); got %v", p, lo, got)
			break
		}
		seen[p] = true
	}
	for _, p := range got {
		releaseServerPort(p)
	}

	needRedis(t)
	s, err := Start(context.Background(), Config{Name: "n1"})
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(s.Addr())
	if p, _ := strconv.Atoi(port); p >= lo {
		t.Errorf("redis-server on port %d, inside the ephemeral range (from %d)", p, lo)
	}
	s.Stop()
	pn, _ := strconv.Atoi(port)
	ports.Lock()
	held := ports.used[pn]
	ports.Unlock()
	if held {
		t.Errorf("port %d still held after its server stopped", pn)
	}
}

// TestPickedPortTakenIsPickedAgain: a picked port found taken when the
// server binds it (something outside this process took it meanwhile) is
// picked again, not the run's failure.
func TestPickedPortTakenIsPickedAgain(t *testing.T) {
	needRedis(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	taken := l.Addr().(*net.TCPAddr).Port
	first := true
	pickPort = func() (int, error) {
		if first {
			first = false
			return taken, nil
		}
		return pickServerPort()
	}
	defer func() { pickPort = pickServerPort }()
	s, err := Start(context.Background(), Config{Name: "n1"})
	if err != nil {
		t.Fatalf("a taken port was not picked again: %v", err)
	}
	defer s.Stop()
	if s.Port() == taken || first {
		t.Errorf("server on port %d; the taken one was %d (picked: %v)", s.Port(), taken, !first)
	}
}
