package metrics

import (
	"sort"
	"sync"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/locksim/locksim/locks"
)

// Namespace prefixes every metric name.
const Namespace = "locksim"

// counter describes one counter of locks.Snapshot.
type counter struct {
	desc *prometheus.Desc
	get  func(locks.Snapshot) int64
}

func newCounter(name, help string, get func(locks.Snapshot) int64) counter {
	return counter{prometheus.NewDesc(prometheus.BuildFQName(Namespace, "lock", name), help, []string{"pattern"}, nil), get}
}

var (
	counters = []counter{
		newCounter("acquired_total", "Successful acquisitions (re-entries included).", func(s locks.Snapshot) int64 { return s.Acquired }),
		newCounter("failed_total", "Acquire calls that returned an error.", func(s locks.Snapshot) int64 { return s.Failed }),
		newCounter("attempts_total", "Acquisition attempts, retries included.", func(s locks.Snapshot) int64 { return s.Attempts }),
		newCounter("released_total", "Successful releases.", func(s locks.Snapshot) int64 { return s.Released }),
		newCounter("renewals_total", "Successful renewals (watchdog or Extend).", func(s locks.Snapshot) int64 { return s.Renewals }),
		newCounter("renew_errors_total", "Renewals whose outcome was an error.", func(s locks.Snapshot) int64 { return s.RenewErrors }),
		newCounter("lost_total", "Holdings lost while held.", func(s locks.Snapshot) int64 { return s.Lost }),
	}
	waitDesc = prometheus.NewDesc(prometheus.BuildFQName(Namespace, "lock", "wait_seconds"),
		"Time from Acquire to grant.", []string{"pattern"}, nil)
)

// Collector is a prometheus.Collector over locks.Metrics values, each
// tracked under a pattern label. Safe for concurrent use.
type Collector struct {
	mu      sync.Mutex
	tracked map[string]*locks.Metrics
}

var _ prometheus.Collector = (*Collector)(nil)

// NewCollector returns a Collector tracking nothing yet.
func NewCollector() *Collector { return &Collector{tracked: map[string]*locks.Metrics{}} }

// Track exports m under the label pattern=name, replacing any Metrics
// tracked under that name. A nil m stops tracking it.
func (c *Collector) Track(name string, m *locks.Metrics) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if m == nil {
		delete(c.tracked, name)
		return
	}
	c.tracked[name] = m
}

// Describe sends the descriptors of every metric the Collector exports.
func (c *Collector) Describe(ch chan<- *prometheus.Desc) {
	for _, k := range counters {
		ch <- k.desc
	}
	ch <- waitDesc
}

// Collect sends the current values, patterns in name order.
func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	c.mu.Lock()
	names := make([]string, 0, len(c.tracked))
	for n := range c.tracked {
		names = append(names, n)
	}
	tracked := make([]*locks.Metrics, len(names))
	sort.Strings(names)
	for i, n := range names {
		tracked[i] = c.tracked[n]
	}
	c.mu.Unlock()
	for i, n := range names {
		s := tracked[i].Snapshot()
		for _, k := range counters {
			ch <- prometheus.MustNewConstMetric(k.desc, prometheus.CounterValue, float64(k.get(s)), n)
		}
		ch <- waitHistogram(tracked[i].Waits.Snapshot(), n)
	}
}

// waitHistogram converts a locks histogram to a Prometheus one.
func waitHistogram(h locks.HistogramSnapshot, pattern string) prometheus.Metric {
	buckets := make(map[float64]uint64, len(h.Bounds))
	for i, c := range h.Cumulative() {
		buckets[h.Bounds[i].Seconds()] = uint64(c)
	}
	return prometheus.MustNewConstHistogram(waitDesc, uint64(h.Count), h.Sum.Seconds(), buckets, pattern)
}
