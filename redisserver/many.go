package redisserver

import (
	"context"
	"fmt"
	"sync"
)

// StartMany starts n servers without persistence, named n1…nN, each as
// Start does; on an error none is left running.
func StartMany(ctx context.Context, n int) ([]*Server, error) {
	var out []*Server
	for i := range n {
		s, err := Start(ctx, Config{Name: fmt.Sprint("n", i+1)})
		if err != nil {
			StopAll(out)
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// StopAll stops every server in ss, in parallel.
func StopAll(ss []*Server) {
	var wg sync.WaitGroup
	for _, s := range ss {
		wg.Go(s.Stop)
	}
	wg.Wait()
}

// Addrs returns the servers' addresses.
func Addrs(ss []*Server) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s.Addr()
	}
	return out
}
