package fault

import (
	"strings"
	"testing"
	"time"
)

func TestNames(t *testing.T) {
	for _, tc := range []struct {
		name         string
		client, node bool
		index        int
	}{
		{"c1", true, false, 0}, {"c12", true, false, 11}, {"n3", false, true, 2},
		{"c0", false, false, -1}, {"c01", false, false, -1}, {"db", false, false, -1}, {"c", false, false, -1}, {"x1", false, false, -1},
	} {
		if IsClient(tc.name) != tc.client || IsNode(tc.name) != tc.node || Index(tc.name) != tc.index {
			t.Errorf("%q: IsClient %v IsNode %v Index %d, want %v %v %d", tc.name,
				IsClient(tc.name), IsNode(tc.name), Index(tc.name), tc.client, tc.node, tc.index)
		}
	}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		f    Fault
		want string // "" = valid
	}{
		{Fault{Kind: Pause, Target: "c2", For: time.Second}, ""},
		{Fault{Kind: Pause, Target: "n1", For: time.Second}, `field target: "n1" is not a client`},
		{Fault{Kind: Pause, Target: "c1"}, "field for: 0s, want a positive duration"},
		{Fault{Kind: Jump, Target: "n2", By: time.Second}, ""},
		{Fault{Kind: Jump, Target: "n4", By: time.Second}, "field target: n4, but the run has 3 nodes"},
		{Fault{Kind: Drift, Target: "c1", PPM: -1_000_000}, "field rate"},
		{Fault{Kind: Crash, Target: "n1", When: When{Client: "c1", Point: Acquired, N: 1}}, ""},
		{Fault{Kind: Crash, Target: "n1", When: When{Client: "c9", Point: Acquired, N: 1}}, "field on: c9, but the run has 2 clients"},
		{Fault{Kind: Crash, Target: "n1", Persist: true, EverySec: true}, ""},
		{Fault{Kind: Crash, Target: "n1", EverySec: true}, "field persist: everysec is a persistence mode"},
		{Fault{Kind: Partition, A: []string{"c1"}, B: []string{"n1", "db"}}, ""},
		{Fault{Kind: Loss, A: []string{"c1"}, B: []string{"n1"}, PPM: 2_000_000}, "field rate"},
		{Fault{Kind: "meteor", Target: "n1"}, `field kind: unknown fault "meteor"`},
	} {
		err := tc.f.Validate(3, 2)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("Validate(%+v) = %v, want nil", tc.f, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("Validate(%+v) = %v, want %q", tc.f, err, tc.want)
		}
	}
}
