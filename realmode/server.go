package realmode

import (
	"context"

	"github.com/locksim/locksim/redisserver"
)

// A run's nodes and replicas are redis-servers of package redisserver,
// the project's one launcher; these names keep the coordinator's code
// short.
type (
	// Server is one redis-server of a run.
	Server = redisserver.Server
	// ServerConfig describes one.
	ServerConfig = redisserver.Config
	// Persistence is what it keeps on disk across a crash.
	Persistence = redisserver.Persistence
)

// Persistence modes (redisserver's).
const (
	None        = redisserver.None
	AOFAlways   = redisserver.AOFAlways
	AOFEverySec = redisserver.AOFEverySec
	RDB         = redisserver.RDB
)

// startServer starts a run's server, ending the wait for PING when ctx
// is done.
func startServer(ctx context.Context, cfg ServerConfig) (*Server, error) {
	return redisserver.Start(ctx, cfg)
}
