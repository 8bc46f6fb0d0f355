// Package metrics exposes locksim's lock metrics to Prometheus.
//
// Two collectors:
//
//   - Collector exports the counters and the wait-time histogram of one or
//     more locks.Metrics, each labelled with its lock (key, kind):
//     acquisitions, failures, attempts, releases, renewals, renewal
//     errors, losses, and the time Acquire spent before a grant.
//   - InspectCollector inspects a set of locks on every scrape
//     (locks.Inspect): whether each is held, by how many holders, the
//     lowest remaining TTL, the hold (re-entry) count and the wait-queue
//     length.
//
// Both label every metric key and kind, the same values for the same lock,
// so a lock's counters and its state join in a query.
//
// Usage:
//
//	m := &locks.Metrics{}
//	svc, _ := locks.NewService(rdb, "orders", locks.Options{TTL: 10 * time.Second, Metrics: m})
//	c := metrics.NewCollector()
//	orders := metrics.Target{Key: "orders", Kind: locks.KindReentrant}
//	c.Track(orders, m)
//	reg := prometheus.NewRegistry()
//	reg.MustRegister(c, metrics.NewInspectCollector(rdb, orders))
//	http.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
//
// Everything here reads state; nothing changes a lock. The package sits
// beside package locks, which stays free of any metrics library.
package metrics
