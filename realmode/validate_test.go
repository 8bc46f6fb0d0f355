package realmode

import (
	"strings"
	"testing"
)

// TestValidateNamesTheField: every message the protocol refuses is
// refused with the field named; the messages the Go client sends pass.
func TestValidateNamesTheField(t *testing.T) {
	for _, c := range []struct {
		m     Msg
		field string // "" when the message is valid
	}{
		{Msg{Kind: msgReady, Protocol: ProtocolVersion}, ""},
		{Msg{Kind: msgInvoke, Op: "acquire"}, ""},
		{Msg{Kind: msgInvoke, Op: "release", Lease: 3}, ""},
		{Msg{Kind: msgReturn, Op: "acquire", OK: true, Token: "t"}, ""},
		{Msg{Kind: msgReturn, Op: "release", Err: "not held"}, ""},
		{Msg{Kind: msgReturn, Op: "acquire", Err: "i/o timeout", Unknown: true}, ""},
		{Msg{Kind: msgPoint, Point: "write"}, ""},
		{Msg{Kind: msgRead}, ""},
		{Msg{Kind: msgCheck, Lease: 1, OK: true}, ""},
		{Msg{Kind: msgFatal, Err: "no such subject"}, ""},
		{Msg{Kind: msgLost, Lease: 2, At: 1}, ""},
		{Msg{Kind: msgStall, Gap: 5e6, At: 1}, ""},
		{Msg{}, "kind"},
		{Msg{Kind: "raed"}, "kind"},
		{Msg{Kind: msgReady}, "protocol"},
		{Msg{Kind: msgReady, Protocol: 2}, "protocol"},
		{Msg{Kind: msgInvoke, Op: "extend"}, "op"},
		{Msg{Kind: msgInvoke, Op: "release", Lease: -1}, "lease"},
		{Msg{Kind: msgReturn}, "op"},
		{Msg{Kind: msgReturn, Op: "acquire", OK: true, Unknown: true, Token: "t"}, "unknown"},
		{Msg{Kind: msgReturn, Op: "acquire"}, "err"},
		{Msg{Kind: msgReturn, Op: "acquire", OK: true}, "token"},
		{Msg{Kind: msgReturn, Op: "acquire", OK: true, Token: "t", Mode: "write"}, "mode"},
		{Msg{Kind: msgPoint}, "point"},
		{Msg{Kind: msgPoint, Point: "acquire-sent"}, "point"},
		{Msg{Kind: msgWrite, Lease: -2}, "lease"},
		{Msg{Kind: msgFatal}, "err"},
		{Msg{Kind: msgLost, Lease: 1}, "at"},
		{Msg{Kind: msgStall, At: 1}, "gap"},
		{Msg{Kind: msgStall, Gap: 5e6}, "at"},
	} {
		err := validate(c.m)
		switch {
		case c.field == "" && err != nil:
			t.Errorf("validate(%+v) = %v, want nil", c.m, err)
		case c.field != "" && (err == nil || !strings.HasPrefix(err.Error(), `field "`+c.field+`"`)):
			t.Errorf("validate(%+v) = %v, want an error naming field %q", c.m, err, c.field)
		}
	}
}
