package scenario

import (
	"slices"
	"time"
)

func sortedStrings(s []string) []string { slices.Sort(s); return s }

func durInto(field string, dst *time.Duration) setter {
	return func(v string) error {
		d, err := parseDur(field, v)
		*dst = d
		return err
	}
}

func countInto(field string, dst *int) setter {
	return func(v string) error {
		n, err := parseCount(field, v)
		*dst = n
		return err
	}
}

func rateInto(field string, dst *int64) setter {
	return func(v string) error {
		n, err := parseRate(field, v)
		*dst = n
		return err
	}
}

func boolInto(field string, dst *bool) setter {
	return func(v string) error {
		b, err := parseBool(field, v)
		*dst = b
		return err
	}
}

func (p *parser) startFields() map[string]setter {
	s := &p.s
	return map[string]setter{
		"nodes": countInto("nodes", &s.Nodes), "clients": countInto("clients", &s.Clients),
		"ttl": durInto("ttl", &s.TTL), "duration": durInto("duration", &s.Duration),
	}
}

func (p *parser) workloadFields() map[string]setter {
	w := &p.s.Workload
	return map[string]setter{
		"work": durInto("work", &w.Work), "jitter": durInto("jitter", &w.Jitter),
		"think": durInto("think", &w.Think), "prep": durInto("prep", &w.Prep),
		"check": boolInto("check", &w.Check), "acquire-timeout": durInto("acquire-timeout", &w.AcquireTimeout),
		"retry": durInto("retry", &w.Retry), "reenter": boolInto("reenter", &w.Reenter),
		"extend-every": durInto("extend-every", &w.ExtendEvery),
		"extend-on":    func(v string) error { w.ExtendOn = v; return nil },
		"misuse":       boolInto("misuse", &w.Misuse),
	}
}

func (p *parser) netFields() map[string]setter {
	n := &p.s.Net
	return map[string]setter{
		"latency": durInto("latency", &n.Latency.Base), "jitter": durInto("jitter", &n.Latency.Jitter),
		"tail": rateInto("tail", &n.Latency.TailPPM), "tail-latency": durInto("tail-latency", &n.Latency.Tail),
		"loss": rateInto("loss", &n.LossPPM), "timeout": durInto("timeout", &n.Timeout),
	}
}
