package redisserver

import (
	"errors"
	"math/rand/v2"
	"sync"
)

// A redis-server's port is picked below the kernel's ephemeral range
// (32768–60999 on Linux by default), from which every outgoing
// connection's source port and every listener on port 0 (the proxies,
// the tests) are drawn: a port picked there as free could be taken by
// one of them before the server bound it, or between its crash and its
// restart on the same port (a table's run then failed twice in a row,
// and `make real` ended without its table). Ports handed out in this
// process are not handed out again until released, so two runs at once
// never pick the same one.
const (
	serverPortLo = 20000
	serverPortHi = 32000
)

var ports struct {
	sync.Mutex
	used map[int]bool
}

// pickServerPort returns a port no server of this process holds and
// that nothing listens on now.
func pickServerPort() (int, error) {
	ports.Lock()
	defer ports.Unlock()
	if ports.used == nil {
		ports.used = map[int]bool{}
	}
	for range 200 {
		p := serverPortLo + rand.IntN(serverPortHi-serverPortLo)
		if ports.used[p] || portFree(p) != nil {
			continue
		}
		ports.used[p] = true
		return p, nil
	}
	return 0, errors.New("no free port for a redis-server in 200 tries")
}

// releaseServerPort lets port be picked again.
func releaseServerPort(port int) {
	ports.Lock()
	defer ports.Unlock()
	delete(ports.used, port)
}
