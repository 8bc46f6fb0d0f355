package realmode

import (
	"fmt"
	"slices"
	"strings"

	"github.com/locksim/locksim/history"
	"github.com/locksim/locksim/sim/fault"
)

// MessageKinds are the kinds of message a client sends, in the order
// docs/real-protocol.md gives them.
var MessageKinds = []string{msgReady, msgInvoke, msgReturn, msgPoint, msgRead, msgWrite, msgCheck, msgFatal, msgLost, msgStall}

// workloadPoints are the points a client reports (its point messages).
var workloadPoints = []string{string(fault.Acquired), string(fault.Work), string(fault.Write), string(fault.Release)}

var lockOps = []string{history.Acquire, history.Release}

// validate checks a client message against the protocol, field by field:
// the error names the field and what it should have held.
func validate(m Msg) error {
	switch m.Kind {
	case "":
		return fieldErr("kind", "missing (one of %s)", strings.Join(MessageKinds, ", "))
	case msgReady:
		if m.Protocol != ProtocolVersion {
			return fieldErr("protocol", "%s (this coordinator speaks version %d)", version(m.Protocol), ProtocolVersion)
		}
	case msgInvoke:
		return validInvoke(m)
	case msgReturn:
		return validReturn(m)
	case msgPoint:
		if !slices.Contains(workloadPoints, m.Point) {
			return fieldErr("point", "%q is not a workload point (one of %s)", m.Point, strings.Join(workloadPoints, ", "))
		}
	case msgRead, msgWrite, msgCheck:
		return needLease(m)
	case msgFatal:
		if m.Err == "" {
			return fieldErr("err", "missing: a fatal message says why the client cannot go on")
		}
	case msgLost:
		if err := needLease(m); err != nil {
			return err
		}
		return needAt(m)
	case msgStall:
		if m.Gap <= 0 {
			return fieldErr("gap", "%d: a stall's length in nanoseconds, above 0", m.Gap)
		}
		return needAt(m)
	default:
		return fieldErr("kind", "%q is not a message kind (one of %s)", m.Kind, strings.Join(MessageKinds, ", "))
	}
	return nil
}

func validInvoke(m Msg) error {
	if !slices.Contains(lockOps, m.Op) {
		return fieldErr("op", "%q is not a lock call (acquire or release)", m.Op)
	}
	if m.Op == history.Release {
		return needLease(m)
	}
	return nil
}

func validReturn(m Msg) error {
	switch {
	case !slices.Contains(lockOps, m.Op):
		return fieldErr("op", "%q is not a lock call (acquire or release)", m.Op)
	case m.OK && m.Unknown:
		return fieldErr("unknown", "set on a return with ok: an outcome is known (ok) or not (unknown), not both")
	case !m.OK && m.Err == "":
		return fieldErr("err", "missing: a return without ok says why the call failed")
	case m.OK && m.Op == history.Acquire && m.Token == "":
		return fieldErr("token", "missing: a granted acquire names its owner token")
	case m.Mode != "" && m.Mode != history.ModeRead:
		return fieldErr("mode", "%q: only %q (a shared holding) or none", m.Mode, history.ModeRead)
	}
	return nil
}

// needLease refuses a negative lease id; that the lease is one granted
// to the client is the coordinator's check (ownLease). Lease ids start
// at 0, so a missing lease field is lease 0.
func needLease(m Msg) error {
	if m.Lease < 0 {
		return fieldErr("lease", "%d: a %s message names a lease id the coordinator granted (0 or above)", m.Lease, m.Kind)
	}
	return nil
}

func needAt(m Msg) error {
	if m.At <= 0 {
		return fieldErr("at", "%d: a %s notice gives when it happened (Unix nanoseconds)", m.At, m.Kind)
	}
	return nil
}

func version(v int) string {
	if v == 0 {
		return "missing"
	}
	return fmt.Sprintf("version %d is unknown", v)
}

func fieldErr(field, format string, args ...any) error {
	return fmt.Errorf("field %q: %s", field, fmt.Sprintf(format, args...))
}
