package report

import (
	"regexp"
	"strconv"

	"github.com/locksim/locksim/history"
	"github.com/locksim/locksim/sim"
)

// A promptness counterexample has nothing for porcupine to find: a late
// loss signal is a holder that went on believing in a lock the server had
// let go, which the data may never show. So its page draws the claim
// itself: each late signal as a span, from the instant the server let the
// lock go to the instant the holder learnt of it (or the run or its
// release ended), on a row of its own named after the holder.

// LateSpanKind is the kind of the history event that marks a late loss
// signal on a counterexample page.
const LateSpanKind = "late loss signal"

// lostAt finds, in a late-signal finding's detail, the true time at which
// the server let the lock go ("... lost the lock on the server at
// t=0.120000s and learnt of it ...").
var lostAt = regexp.MustCompile(`lost the lock on the server at t=(-?[0-9]+)\.([0-9]{6})s`)

// lateSpans returns a copy of h with a LateSpanKind event per finding: the
// span from the loss to the finding (made when the signal came, late, or
// the wait for it ended). A finding whose detail names no loss time marks
// the instant of the finding alone.
func lateSpans(h *history.History, late []sim.Violation) *history.History {
	if h == nil || len(late) == 0 {
		return h
	}
	out := *h
	out.Events = append([]history.Event{}, h.Events...)
	for _, v := range late {
		target := "run"
		if len(v.Clients) > 0 {
			target = v.Clients[0]
		}
		e := history.Event{At: v.At, Kind: LateSpanKind, Target: target + " loss signal", Detail: v.Detail}
		if from, ok := parseLostAt(v.Detail); ok && from < v.At {
			e.At, e.End = from, v.At
		}
		out.Events = append(out.Events, e)
	}
	return &out
}

func parseLostAt(detail string) (int64, bool) {
	m := lostAt.FindStringSubmatch(detail)
	if m == nil {
		return 0, false
	}
	s, err1 := strconv.ParseInt(m[1], 10, 64)
	us, err2 := strconv.ParseInt(m[2], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	if s < 0 || m[1] == "-0" {
		return -(-s*1e9 + us*1e3), true
	}
	return s*1e9 + us*1e3, true
}
