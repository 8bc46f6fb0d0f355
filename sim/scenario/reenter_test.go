package scenario

import (
	"strings"
	"testing"
)

func TestReenterRoundTrips(t *testing.T) {
	s, err := ParseString("start clients=2\nworkload reenter=yes\n")
	if err != nil {
		t.Fatal(err)
	}
	if !s.Workload.Reenter {
		t.Fatalf("reenter=yes parsed as Reenter=false")
	}
	text := Format(s)
	if !strings.Contains(text, " reenter=yes\n") {
		t.Errorf("Format lost reenter:\n%s", text)
	}
	back, err := ParseString(text)
	if err != nil || !back.Workload.Reenter {
		t.Errorf("re-parse: Reenter=%v, err %v", back.Workload.Reenter, err)
	}
	plain, _ := ParseString("start clients=2\n")
	if strings.Contains(Format(plain), "reenter") {
		t.Errorf("reenter written when unset:\n%s", Format(plain))
	}
	if _, err := ParseString("workload reenter=maybe\n"); err == nil || !strings.Contains(err.Error(), "reenter") {
		t.Errorf("reenter=maybe: error %v, want one naming reenter", err)
	}
}
