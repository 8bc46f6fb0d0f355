// Package metrics exposes locksim's lock metrics to Prometheus.
//
// Two collectors:
//
//   - Collector exports the counters and the wait-time histogram of one or
//     more locks.Metrics, one label value per pattern: acquisitions,
//     failures, attempts, releases, renewals, renewal errors, losses, and
//     the time Acquire spent before a grant.
//   - InspectCollector inspects a set of locks on every scrape
//     (locks.Inspect): whether each is held, by how many holders, the
//     lowest remaining TTL, the hold (re-entry) count and the wait-queue
//     length.
//
// Usage:
//
//	m := &locks.Metrics{}
//	svc, _ := locks.NewService(rdb, "orders", locks.Options{TTL: 10 * time.Second, Metrics: m})
//	c := metrics.NewCollector()
//	c.Track("service", m)
//	reg := prometheus.NewRegistry()
//	reg.MustRegister(c, metrics.NewInspectCollector(rdb, metrics.Target{Key: "orders", Kind: locks.KindReentrant}))
//	http.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
//
// Everything here reads state; nothing changes a lock. The package sits
// beside package locks, which stays free of any metrics library.
package metrics
