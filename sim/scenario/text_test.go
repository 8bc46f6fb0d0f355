package scenario

import (
	"errors"
	"strings"
	"testing"
)

func TestParseSkipsByteOrderMark(t *testing.T) {
	text := "start nodes=1 clients=2 ttl=100ms\npause c1 for=150ms\n"
	plain, err := ParseString(text)
	if err != nil {
		t.Fatal(err)
	}
	bom, err := ParseString("\ufeff" + text)
	if err != nil {
		t.Fatalf("Parse of a file with a UTF-8 byte order mark: %v", err)
	}
	if Format(plain) != Format(bom) {
		t.Errorf("with a BOM:\n%s\nwithout:\n%s", Format(bom), Format(plain))
	}
	if _, err := ParseString("start\n\ufeffpause c1 for=1ms\n"); !errors.Is(err, ErrNotText) {
		t.Errorf("a BOM inside the file: %v, want ErrNotText", err)
	}
}

func TestParseRefusesBinaryWithoutEchoingIt(t *testing.T) {
	for _, bin := range []string{
		"\x7fELF\x02\x01\x01\x00\x00\x00",
		"start nodes=1\n\x00\x01\x02\x03",
		"start \xff\xfe\n",
		strings.Repeat("x", 2<<20),
	} {
		_, err := ParseString(bin)
		if !errors.Is(err, ErrNotText) {
			t.Errorf("Parse(%q...) = %v, want ErrNotText", bin[:min(len(bin), 12)], err)
			continue
		}
		if msg := err.Error(); !IsText(msg) || strings.Contains(msg, "ELF") || strings.Contains(msg, "xxxx") {
			t.Errorf("error %q repeats the input", msg)
		}
	}
}

// TestParseRefusesAnEmptyFile: a file without a directive (nothing, blank
// lines, comments, a byte order mark) fails with ErrEmpty, saying what it
// lacks, not with an error on a line it does not have.
func TestParseRefusesAnEmptyFile(t *testing.T) {
	for _, text := range []string{"", "\n\n", "# a comment\n   \n", "\ufeff"} {
		_, err := ParseString(text)
		if !errors.Is(err, ErrEmpty) || !strings.Contains(err.Error(), "empty scenario file: no directive") || strings.HasPrefix(err.Error(), "line ") {
			t.Errorf("Parse(%q) = %v, want ErrEmpty saying it has no directive, naming no line", text, err)
		}
	}
	if _, err := ParseString("# a comment\npause c1 for=150ms\n"); errors.Is(err, ErrEmpty) || err == nil || !strings.Contains(err.Error(), "no start line") {
		t.Errorf("Parse(no start line) = %v, want the missing start line, not ErrEmpty", err)
	}
}
