package metrics

import (
	"sort"

	"github.com/prometheus/client_golang/prometheus"
)

// collector turns Metrics' state into constant metrics at each scrape, so
// the hot path (a tick) only adds integers under a lock.
type collector struct{ m *Metrics }

func (c collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descOps, descRows, descBytes, descErrors, descDrop, descLat, descIvLat} {
		ch <- d
	}
}

func (c collector) Collect(ch chan<- prometheus.Metric) {
	c.m.mu.Lock()
	defer c.m.mu.Unlock()
	for k, dropped := range c.m.mu.runs {
		ch <- prometheus.MustNewConstMetric(descDrop, prometheus.CounterValue, float64(dropped), k.family, k.target, k.workload)
	}
	for k, s := range c.m.mu.ops {
		lv := []string{k.family, k.target, k.workload, k.operation}
		ch <- prometheus.MustNewConstMetric(descOps, prometheus.CounterValue, float64(s.ops), lv...)
		ch <- prometheus.MustNewConstMetric(descRows, prometheus.CounterValue, float64(s.rows), lv...)
		ch <- prometheus.MustNewConstMetric(descBytes, prometheus.CounterValue, float64(s.bytes), lv...)
		kinds := make([]string, 0, len(s.errors))
		for kind := range s.errors {
			kinds = append(kinds, kind)
		}
		sort.Strings(kinds)
		for _, kind := range kinds {
			ch <- prometheus.MustNewConstMetric(descErrors, prometheus.CounterValue, float64(s.errors[kind]), append(lv, kind)...)
		}
		cum := map[float64]uint64{}
		var n uint64
		for j, bound := range Buckets {
			n += s.buckets[j]
			cum[bound] = n
		}
		n += s.buckets[len(Buckets)]
		ch <- prometheus.MustNewConstHistogram(descLat, n, s.sum, cum, lv...)
		for j, q := range quantiles {
			ch <- prometheus.MustNewConstMetric(descIvLat, prometheus.GaugeValue, s.interval[j], append(lv, q.label)...)
		}
	}
}
