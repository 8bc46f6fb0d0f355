package realmode

import (
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// docSection is the text of docs/real-protocol.md's section "## title",
// up to the next "## ".
func docSection(t *testing.T, doc, title string) string {
	t.Helper()
	_, rest, ok := strings.Cut(doc, "\n## "+title+"\n")
	if !ok {
		t.Fatalf("docs/real-protocol.md has no section %q", title)
	}
	sec, _, _ := strings.Cut(rest, "\n## ")
	return sec
}

var (
	docKind  = regexp.MustCompile("(?m)^### `([a-z]+)`$")
	docField = regexp.MustCompile("(?m)^\\| `([a-z_]+)` \\|")
)

func matches(re *regexp.Regexp, s string) []string {
	var out []string
	for _, m := range re.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}

// jsonFields are the JSON names of v's fields.
func jsonFields(v any) []string {
	var out []string
	rt := reflect.TypeOf(v)
	for i := range rt.NumField() {
		name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
		out = append(out, name)
	}
	return out
}

// TestProtocolDocMatchesTheCode: docs/real-protocol.md gives every
// message kind the coordinator takes, in order, and no other; and every
// field of the Setup, of a message and of a reply, as the code encodes
// them, and no other.
func TestProtocolDocMatchesTheCode(t *testing.T) {
	b, err := os.ReadFile("../docs/real-protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	if got := matches(docKind, docSection(t, doc, "Messages")); !slices.Equal(got, MessageKinds) {
		t.Errorf("message kinds in the doc: %v\nin the code (MessageKinds): %v", got, MessageKinds)
	}
	for _, kind := range MessageKinds {
		if err := validate(Msg{Kind: kind}); err != nil && strings.Contains(err.Error(), "is not a message kind") {
			t.Errorf("validate refuses kind %q, which MessageKinds lists", kind)
		}
	}
	for _, c := range []struct {
		section string
		v       any
	}{{"Setup", Setup{}}, {"Messages", Msg{}}, {"Replies", Reply{}}} {
		got, want := matches(docField, docSection(t, doc, c.section)), jsonFields(c.v)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s fields in the doc: %v\nin the code (%T): %v", c.section, got, c.v, want)
		}
	}
	if !strings.Contains(doc, "# The real-mode client protocol, version 1\n") || ProtocolVersion != 1 {
		t.Errorf("the doc's title gives version 1; the code's ProtocolVersion is %d", ProtocolVersion)
	}
}
