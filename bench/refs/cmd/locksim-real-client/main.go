// Command locksim-real-client is a client process of `locksim real` that
// also runs the lock libraries (redsync, bsm/redislock, rueidislock) as
// subjects:
//
//	cd bench/refs && go build -o /tmp/locksim-real-client ./cmd/locksim-real-client
//	locksim real --client /tmp/locksim-real-client --pattern redsync-5 --scenario gc-pause --runs 10
package main

import (
	"os"

	"github.com/locksim/locksim/bench/refs/real"
	"github.com/locksim/locksim/realmode"
)

func main() { os.Exit(realmode.ClientMain(real.Subjects()...)) }
