package oracle

import (
	"sort"
	"strconv"
	"strings"

	"github.com/locksim/locksim/pattern"
)

// Violation is one oracle finding.
type Violation struct {
	Kind    string   `json:"kind"` // a pattern.Finding: "overlap", "holders", "lost-update", "fence", "stall", "late-signal"
	At      int64    `json:"at_ns"`
	Clients []string `json:"clients"`
	Detail  string   `json:"detail"`
}

// MaxViolations bounds the violations a Log keeps (its count is exact).
const MaxViolations = 20

// Log is a run's findings, which every oracle of the run reports to.
type Log struct {
	v          View
	trace      func(format string, a ...any)
	violations []Violation
	count      int
}

// NewLog is the findings of the run v views; trace, if not nil, gets a
// line for each.
func NewLog(v View, trace func(format string, a ...any)) *Log { return &Log{v: v, trace: trace} }

// Violate records a finding of kind about clients now, and traces it.
func (l *Log) Violate(kind pattern.Finding, clients []int, detail string) {
	l.count++
	names := make([]string, len(clients))
	for i, c := range clients {
		names[i] = l.v.Name(c)
	}
	sort.Strings(names)
	if len(l.violations) < MaxViolations {
		l.violations = append(l.violations, Violation{Kind: string(kind), At: l.v.Now(), Clients: names, Detail: detail})
	}
	if l.trace != nil {
		l.trace("VIOLATION %s %s: %s", kind, strings.Join(names, ","), detail)
	}
}

// Violations returns a copy of the first violations found, in time order.
func (l *Log) Violations() []Violation { return append([]Violation{}, l.violations...) }

// Count is the number of violations found in all.
func (l *Log) Count() int { return l.count }

// AppendTime writes ns of true time as seconds with microseconds:
// 1.250000s.
func AppendTime(b []byte, ns int64) []byte {
	if ns < 0 {
		b = append(b, '-')
		ns = -ns
	}
	b = strconv.AppendInt(b, ns/1e9, 10)
	b = append(b, '.')
	us := strconv.AppendInt(nil, (ns%1e9)/1e3, 10)
	for range 6 - len(us) {
		b = append(b, '0')
	}
	b = append(b, us...)
	return append(b, 's')
}

// FormatTime formats a true time for trace and violation texts.
func FormatTime(ns int64) string { return string(AppendTime(nil, ns)) }
