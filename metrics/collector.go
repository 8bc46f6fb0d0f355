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
	return counter{prometheus.NewDesc(prometheus.BuildFQName(Namespace, "lock", name), help, lockLabels, nil), get}
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
		"Time from Acquire to grant.", lockLabels, nil)
)

// lockLabels are the labels of every metric of both collectors: the lock's
// key (or name) and its layout, as locks.Inspect takes them, so that a
// lock's counters and its inspected state join on the same labels.
var lockLabels = []string{"key", "kind"}

// Collector is a prometheus.Collector over locks.Metrics values, each
// tracked under the labels of its lock (key, kind). Safe for concurrent
// use.
type Collector struct {
	mu      sync.Mutex
	tracked map[Target]*locks.Metrics
}

var _ prometheus.Collector = (*Collector)(nil)

// NewCollector returns a Collector tracking nothing yet.
func NewCollector() *Collector { return &Collector{tracked: map[Target]*locks.Metrics{}} }

// Track exports m, the Options.Metrics of the lock t, under the labels
// key=t.Key, kind=t.Kind (those InspectCollector gives the same lock),
// replacing any Metrics tracked for t. A nil m stops tracking it.
func (c *Collector) Track(t Target, m *locks.Metrics) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if m == nil {
		delete(c.tracked, t)
		return
	}
	c.tracked[t] = m
}

// Describe sends the descriptors of every metric the Collector exports.
func (c *Collector) Describe(ch chan<- *prometheus.Desc) {
	for _, k := range counters {
		ch <- k.desc
	}
	ch <- waitDesc
}

// Collect sends the current values, locks in (key, kind) order.
func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	c.mu.Lock()
	targets := make([]Target, 0, len(c.tracked))
	for t := range c.tracked {
		targets = append(targets, t)
	}
	sort.Slice(targets, func(i, j int) bool {
		a, b := targets[i], targets[j]
		return a.Key < b.Key || (a.Key == b.Key && a.Kind < b.Kind)
	})
	tracked := make([]*locks.Metrics, len(targets))
	for i, t := range targets {
		tracked[i] = c.tracked[t]
	}
	c.mu.Unlock()
	for i, t := range targets {
		s := tracked[i].Snapshot()
		for _, k := range counters {
			ch <- prometheus.MustNewConstMetric(k.desc, prometheus.CounterValue, float64(k.get(s)), t.Key, string(t.Kind))
		}
		ch <- waitHistogram(tracked[i].Waits.Snapshot(), t)
	}
}

// waitHistogram converts a locks histogram to a Prometheus one.
func waitHistogram(h locks.HistogramSnapshot, t Target) prometheus.Metric {
	buckets := make(map[float64]uint64, len(h.Bounds))
	for i, c := range h.Cumulative() {
		buckets[h.Bounds[i].Seconds()] = uint64(c)
	}
	return prometheus.MustNewConstHistogram(waitDesc, uint64(h.Count), h.Sum.Seconds(), buckets, t.Key, string(t.Kind))
}
