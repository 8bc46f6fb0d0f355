package scenario

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// fmtDur writes d in the largest unit that keeps it exact: 2s, 150ms,
// 200us, 7ns; signed when sign is set (+2s, -500ms).
func fmtDur(d time.Duration, sign bool) string {
	prefix := ""
	switch {
	case d < 0:
		prefix, d = "-", -d
	case sign:
		prefix = "+"
	}
	for _, u := range []struct {
		unit time.Duration
		name string
	}{{time.Hour, "h"}, {time.Minute, "m"}, {time.Second, "s"}, {time.Millisecond, "ms"}, {time.Microsecond, "us"}} {
		if d%u.unit == 0 && d != 0 {
			return prefix + strconv.FormatInt(int64(d/u.unit), 10) + u.name
		}
	}
	if d == 0 {
		return prefix + "0s"
	}
	return prefix + strconv.FormatInt(int64(d), 10) + "ns"
}

func parseDur(field, v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, fmt.Errorf("field %s: bad duration %q (want e.g. 150ms, 1.5s, 200us)", field, v)
	}
	return d, nil
}

// fmtRate writes parts per million as a percentage with up to four
// decimals (exact for every ppm value): 1%, 0.25%, -20%, 0.0001%.
func fmtRate(ppm int64, sign bool) string {
	prefix := ""
	switch {
	case ppm < 0:
		prefix, ppm = "-", -ppm
	case sign:
		prefix = "+"
	}
	whole, frac := ppm/10_000, ppm%10_000
	if frac == 0 {
		return fmt.Sprintf("%s%d%%", prefix, whole)
	}
	return fmt.Sprintf("%s%d.%s%%", prefix, whole, strings.TrimRight(fmt.Sprintf("%04d", frac), "0"))
}

// parseRate reads 1%, 0.25%, -20%, +2%, 2500ppm into parts per million.
func parseRate(field, v string) (int64, error) {
	bad := fmt.Errorf("field %s: bad rate %q (want e.g. 1%%, 0.25%%, -20%%, 2500ppm)", field, v)
	if n, ok := strings.CutSuffix(v, "ppm"); ok {
		x, err := strconv.ParseInt(n, 10, 64)
		if err != nil {
			return 0, bad
		}
		return x, nil
	}
	n, ok := strings.CutSuffix(v, "%")
	if !ok || n == "" {
		return 0, bad
	}
	neg := strings.HasPrefix(n, "-")
	n = strings.TrimLeft(n, "+-")
	whole, frac, _ := strings.Cut(n, ".")
	if len(frac) > 4 || whole == "" || len(whole) > 9 {
		return 0, bad
	}
	w, err1 := strconv.ParseUint(whole, 10, 32)
	f, err2 := strconv.ParseUint(frac+strings.Repeat("0", 4-len(frac)), 10, 32)
	if err1 != nil || err2 != nil {
		return 0, bad
	}
	ppm := int64(w)*10_000 + int64(f)
	if neg {
		ppm = -ppm
	}
	return ppm, nil
}

func fmtBool(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func parseBool(field, v string) (bool, error) {
	switch v {
	case "yes", "true":
		return true, nil
	case "no", "false":
		return false, nil
	}
	return false, fmt.Errorf("field %s: bad boolean %q (want yes or no)", field, v)
}

func parseCount(field, v string) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > 1_000_000 {
		return 0, fmt.Errorf("field %s: bad count %q", field, v)
	}
	return n, nil
}
