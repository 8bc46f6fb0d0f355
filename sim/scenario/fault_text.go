package scenario

import (
	"fmt"
	"strings"

	"github.com/locksim/locksim/sim/fault"
)

// faultFields lists the fields each kind takes besides at, on, n and
// after.
var faultFields = map[fault.Kind][]string{
	fault.Pause: {"for"}, fault.Slow: {"for"}, fault.Starve: {"for"}, fault.Jump: {"by"}, fault.Drift: {"rate"},
	fault.Crash: {"for", "persist"}, fault.Failover: {}, fault.SplitBrain: {"for", "old"},
	fault.Partition: {"for"}, fault.SlowLink: {"for", "by", "dir"}, fault.Loss: {"for", "rate"},
	fault.BlackHole: {"for"},
}

func linkKind(k fault.Kind) bool {
	return k == fault.Partition || k == fault.SlowLink || k == fault.Loss || k == fault.BlackHole
}

func parseFault(kind fault.Kind, args []string) (fault.Fault, error) {
	f := fault.Fault{Kind: kind}
	if len(args) == 0 || strings.Contains(args[0], "=") {
		if linkKind(kind) {
			return f, fmt.Errorf("field sides: missing (e.g. %s c1|n1,n2 …)", kind)
		}
		return f, fmt.Errorf("field target: missing (e.g. %s c1 …)", kind)
	}
	if err := setSubject(&f, args[0]); err != nil {
		return f, err
	}
	var at, on, n, after string
	fields := map[string]setter{
		"at":    func(v string) error { at = v; return nil },
		"on":    func(v string) error { on = v; return nil },
		"n":     func(v string) error { n = v; return nil },
		"after": func(v string) error { after = v; return nil },
		"every": everyInto(&f),
	}
	for _, name := range faultFields[kind] {
		fields[name] = faultSetter(&f, name)
	}
	if err := keyValues(args[1:], fields); err != nil {
		return f, err
	}
	if kind == fault.SlowLink && f.Dir == 0 {
		f.Dir = fault.Both
	}
	if err := setWhen(&f, at, on, n); err != nil {
		return f, err
	}
	return f, setAfter(&f, on, after)
}

// setAfter reads after=, the offset from a triggered fault's point.
func setAfter(f *fault.Fault, on, after string) error {
	if after == "" {
		return nil
	}
	if on == "" {
		return fmt.Errorf("field after: only with on= (an offset from a workload point)")
	}
	d, err := parseDur("after", after)
	if err != nil {
		return err
	}
	if d < 0 {
		return fmt.Errorf("field after: %v is negative", d)
	}
	f.When.After = d
	return nil
}

func setSubject(f *fault.Fault, s string) error {
	if !linkKind(f.Kind) {
		f.Target = s
		return nil
	}
	a, b, ok := strings.Cut(s, "|")
	if !ok {
		return fmt.Errorf("field sides: %q, want A|B (e.g. c1|n1,n2)", s)
	}
	f.A, f.B = splitNames(a), splitNames(b)
	return nil
}

func splitNames(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// setWhen reads at=, or on=[client:]point with n=.
func setWhen(f *fault.Fault, at, on, n string) error {
	switch {
	case at != "" && on != "":
		return fmt.Errorf("field at: give at= or on=, not both")
	case n != "" && on == "":
		return fmt.Errorf("field n: only with on=")
	case on == "":
		if at == "" {
			return nil
		}
		d, err := parseDur("at", at)
		f.When.At = d
		return err
	}
	client, point, named := strings.Cut(on, ":")
	if !named {
		client, point = f.Target, on
		// A target that names nothing (x9) is its own error, which
		// Validate gives; a node or a link has no point of its own.
		if !fault.IsClient(client) && (linkKind(f.Kind) || fault.IsNode(client) || strings.HasSuffix(client, "*")) {
			return fmt.Errorf("field on: %q: name the client whose point it is (on=c1:%s)", on, on)
		}
	}
	if point == "" {
		return fmt.Errorf("field on: %q names no point (e.g. on=write, on=c1:acquired)", on)
	}
	f.When.Client, f.When.Point, f.When.N = client, fault.Point(point), 1
	if n != "" {
		var err error
		if f.When.N, err = parseCount("n", n); err != nil {
			return err
		}
	}
	return nil
}

// persistInto reads persist=: yes or always (every write is synced),
// everysec (the writes after the last once-a-second fsync are lost), or
// no (the data is lost).
func persistInto(f *fault.Fault) setter {
	return func(v string) error {
		switch v {
		case "always":
			f.Persist, f.EverySec = true, false
			return nil
		case "everysec":
			f.Persist, f.EverySec = true, true
			return nil
		}
		b, err := parseBool("persist", v)
		if err != nil {
			return fmt.Errorf("field persist: %q, want yes (or always), everysec or no", v)
		}
		f.Persist, f.EverySec = b, false
		return nil
	}
}

func faultSetter(f *fault.Fault, name string) setter {
	switch name {
	case "for":
		return distInto("for", &f.Sched.ForDist, durInto("for", &f.For))
	case "by":
		return distInto("by", &f.Sched.ByDist, durInto("by", &f.By))
	case "rate":
		return distInto("rate", &f.Sched.RateDist, rateInto("rate", &f.PPM))
	case "persist":
		return persistInto(f)
	case "old":
		return func(v string) error { f.A = splitNames(v); return nil }
	}
	return func(v string) error {
		d, ok := map[string]fault.Dir{"request": fault.Request, "reply": fault.Reply, "both": fault.Both}[v]
		if !ok {
			return fmt.Errorf("field dir: %q, want request, reply or both", v)
		}
		f.Dir = d
		return nil
	}
}

// FormatFault writes f as one canonical line of the scenario format.
func FormatFault(f fault.Fault) string {
	var b strings.Builder
	b.WriteString(string(f.Kind))
	b.WriteByte(' ')
	if linkKind(f.Kind) {
		b.WriteString(strings.Join(f.A, ",") + "|" + strings.Join(f.B, ","))
	} else {
		b.WriteString(f.Target)
	}
	b.WriteString(formatWhen(f))
	b.WriteString(formatEvery(f))
	for _, name := range faultFields[f.Kind] {
		b.WriteString(formatField(f, name))
	}
	return b.String()
}

func formatWhen(f fault.Fault) string {
	w := f.When
	if !w.Triggered() {
		return " at=" + fmtDur(w.At, false)
	}
	on := w.Client + ":" + string(w.Point)
	if w.Client == f.Target {
		on = string(w.Point)
	}
	s := " on=" + on
	if w.N != 1 {
		s += fmt.Sprintf(" n=%d", w.N)
	}
	if w.After > 0 {
		s += " after=" + fmtDur(w.After, false)
	}
	return s
}

func formatField(f fault.Fault, name string) string {
	switch name {
	case "for":
		if f.For == 0 && f.Sched.ForDist == fault.Fixed && (linkKind(f.Kind) || f.Kind == fault.Crash || f.Kind == fault.SplitBrain) {
			return "" // until the run ends
		}
		return " for=" + formatDist(f.Sched.ForDist, fmtDur(f.For, false))
	case "by":
		return " by=" + formatDist(f.Sched.ByDist, fmtDur(f.By, f.Kind == fault.Jump))
	case "rate":
		return " rate=" + formatDist(f.Sched.RateDist, fmtRate(f.PPM, f.Kind == fault.Drift))
	case "old":
		return " old=" + strings.Join(f.A, ",")
	case "persist":
		if f.EverySec {
			return " persist=everysec"
		}
		return " persist=" + fmtBool(f.Persist)
	}
	if f.Dir == fault.Both {
		return ""
	}
	return " dir=" + map[fault.Dir]string{fault.Request: "request", fault.Reply: "reply"}[f.Dir]
}
