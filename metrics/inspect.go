package metrics

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/locksim/locksim/locks"
)

// Target is one lock an InspectCollector reports on: its key (or name) and
// layout, as locks.Inspect takes them.
type Target struct {
	Key  string
	Kind locks.Kind
}

var (
	heldDesc    = lockDesc("held", "1 if anyone holds the lock, else 0.")
	holdersDesc = lockDesc("holders", "Current holders (readers or permits count one each).")
	ttlDesc     = lockDesc("ttl_seconds", "Lowest remaining TTL among the holders; 0 when free.")
	countDesc   = lockDesc("holds", "Total hold count: re-entries for reentrant locks.")
	queueDesc   = lockDesc("queue_length", "Live waiters: the fair lock's queue, 1 while a writer waits on a read-write lock.")
	fenceDesc   = lockDesc("fence", "Last fencing token issued (fenced locks).")
)

func lockDesc(name, help string) *prometheus.Desc {
	return prometheus.NewDesc(prometheus.BuildFQName(Namespace, "lock", name), help, lockLabels, nil)
}

// InspectCollector inspects its targets on every scrape through one Redis
// connection, each within Timeout (default 1s). A target that cannot be
// inspected is reported as an invalid metric, so the scrape shows the
// error instead of silently dropping the lock.
type InspectCollector struct {
	r       locks.Redis
	targets []Target
	Timeout time.Duration
}

var _ prometheus.Collector = (*InspectCollector)(nil)

// NewInspectCollector returns a collector over targets.
func NewInspectCollector(r locks.Redis, targets ...Target) *InspectCollector {
	return &InspectCollector{r: r, targets: targets, Timeout: time.Second}
}

// Describe sends the descriptors of every metric the collector exports.
func (c *InspectCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{heldDesc, holdersDesc, ttlDesc, countDesc, queueDesc, fenceDesc} {
		ch <- d
	}
}

// Collect inspects every target, in the order given.
func (c *InspectCollector) Collect(ch chan<- prometheus.Metric) {
	for _, t := range c.targets {
		ctx, cancel := context.WithTimeout(context.Background(), c.Timeout)
		info, err := locks.Inspect(ctx, c.r, t.Key, t.Kind)
		cancel()
		if err != nil {
			ch <- prometheus.NewInvalidMetric(heldDesc, err)
			continue
		}
		for _, m := range gauges(info) {
			ch <- m
		}
	}
}

// gauges turns one inspection into its gauges.
func gauges(info locks.Info) []prometheus.Metric {
	var held, count float64
	var ttl time.Duration
	for i, h := range info.Holders {
		count += float64(h.Count)
		if i == 0 || h.TTL < ttl {
			ttl = h.TTL
		}
	}
	if info.Held() {
		held = 1
	}
	labels := []string{info.Key, string(info.Kind)}
	g := func(d *prometheus.Desc, v float64) prometheus.Metric {
		return prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	return []prometheus.Metric{
		g(heldDesc, held), g(holdersDesc, float64(len(info.Holders))), g(ttlDesc, ttl.Seconds()),
		g(countDesc, count), g(queueDesc, float64(info.Queue)), g(fenceDesc, float64(info.Fence)),
	}
}
