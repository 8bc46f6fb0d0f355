package report

import (
	"context"
	"fmt"
	"html"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// The link test: every in-page and cross-page link of a generated report
// resolves, in the Markdown as GitHub renders it (its heading anchors) and
// in the HTML (its ids). The anchors of the Markdown are computed here
// from the headings' text, by GitHub's rules, independently of Slug.

// githubPunct is what GitHub's slugger drops: anything but letters, marks,
// digits, connector punctuation ('_'), '-' and space.
var githubPunct = regexp.MustCompile(`[^\p{L}\p{M}\p{N}\p{Pc}\- ]`)

// githubAnchors lists the anchors GitHub gives the headings of md: the
// text unescaped, lower-cased, punctuation dropped, spaces to '-', and
// repeats suffixed -1, -2, ...
func githubAnchors(md string) map[string]bool {
	unescape := strings.NewReplacer(`\|`, `|`, `\*`, `*`, `\_`, `_`, "\\`", "`", `\[`, `[`, `\]`, `]`, "&lt;", "<", "&gt;", ">")
	out, seen := map[string]bool{}, map[string]int{}
	inCode := false
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "```") {
			inCode = !inCode
		}
		h := regexp.MustCompile(`^#{1,6} (.*)$`).FindStringSubmatch(l)
		if inCode || h == nil {
			continue
		}
		base := strings.ReplaceAll(githubPunct.ReplaceAllString(strings.ToLower(unescape.Replace(h[1])), ""), " ", "-")
		a := base
		if n, ok := seen[base]; ok {
			a = fmt.Sprintf("%s-%d", base, n)
		}
		seen[base]++
		out[a] = true
	}
	return out
}

var (
	mdLink   = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	htmlLink = regexp.MustCompile(`(?:href|src)="([^"]*)"`)
	htmlID   = regexp.MustCompile(`\sid="([^"]*)"`)
)

// deadLinks returns, sorted, every link of the report in dir (its
// Markdown, its HTML, the counterexample pages) that does not resolve: a
// missing file, or an anchor its target does not have.
func deadLinks(t *testing.T, dir string) []string {
	t.Helper()
	files := readTree(t, dir)
	anchors := map[string]map[string]bool{}
	for name, data := range files {
		switch {
		case strings.HasSuffix(name, ".md"):
			anchors[name] = githubAnchors(string(data))
		case strings.HasSuffix(name, ".html"):
			ids := map[string]bool{}
			for _, m := range htmlID.FindAllStringSubmatch(string(data), -1) {
				ids[html.UnescapeString(m[1])] = true
			}
			anchors[name] = ids
		}
	}
	var dead []string
	for name, data := range files {
		var links [][]string
		switch {
		case strings.HasSuffix(name, ".md"):
			links = mdLink.FindAllStringSubmatch(string(data), -1)
		case strings.HasSuffix(name, ".html"):
			links = htmlLink.FindAllStringSubmatch(string(data), -1)
		default:
			continue
		}
		for _, m := range links {
			if msg := resolve(dir, name, html.UnescapeString(m[1]), anchors); msg != "" {
				dead = append(dead, name+": "+msg)
			}
		}
	}
	sort.Strings(dead)
	return dead
}

// resolve says why link, found in file from, does not resolve ("" when it
// does); links out of the report (a scheme) are not followed.
func resolve(dir, from, link string, anchors map[string]map[string]bool) string {
	u, err := url.Parse(link)
	if err != nil {
		return fmt.Sprintf("link %q does not parse: %v", link, err)
	}
	if u.Scheme != "" {
		return ""
	}
	target := from
	if u.Path != "" {
		target = path.Clean(path.Join(path.Dir(from), u.Path))
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(target))); err != nil {
			return fmt.Sprintf("link %q: no file %s", link, target)
		}
	}
	if u.Fragment == "" {
		return ""
	}
	if a, ok := anchors[target]; !ok || !a[u.Fragment] {
		return fmt.Sprintf("link %q: %s has no anchor %q", link, target, u.Fragment)
	}
	return ""
}

// TestLinksResolve writes a report with every section (the tiny
// measurement, a production scenario, a sweep) and follows every link.
// Before the headings were anchored by GitHub's slugs, the in-page links
// named the headings' IDs (#safety, #production-gc-storm), dead on GitHub.
func TestLinksResolve(t *testing.T) {
	m := sharedTiny(t)
	pm := tinyProduction(t, 2, 0, "gc-storm", "split-brain-wait")
	sw, err := MeasureSweeps(context.Background(), tinyConfig(t, 1, 0).Patterns[:2], 1, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := Write(dir, m, nil, Options{Production: pm, Sweeps: sw}); err != nil {
		t.Fatal(err)
	}
	files := readTree(t, dir)
	if md := site(files, "md"); !strings.Contains(md, "](#") || !strings.Contains(string(files[FileMarkdown]), "](claims.md#") {
		t.Fatal("the report has no in-page or cross-page link to check")
	}
	for _, d := range deadLinks(t, dir) {
		t.Error(d)
	}
}

// TestDeadLinksIsCaught: the checker finds a link to an anchor GitHub
// does not make, a missing file and a missing anchor in another page.
func TestDeadLinksIsCaught(t *testing.T) {
	dir := t.TempDir()
	md := "# Title\n\n## Safety: violation rate\n\n## Safety: violation rate\n\n[a](#safety-violation-rate) [b](#safety-violation-rate-1) [c](#safety) [d](gone.png) [e](page.html#x) [f](page.html#y)\n"
	page := `<html><body><h2 id="y">Y</h2><a href="README.md">back</a></body></html>`
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte(md), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "page.html"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	got := deadLinks(t, dir)
	want := []string{`README.md: link "#safety": README.md has no anchor "safety"`, `README.md: link "gone.png": no file gone.png`,
		`README.md: link "page.html#x": page.html has no anchor "x"`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("dead links:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestSlugIsGitHubs: Slug agrees with the headings GitHub anchors.
func TestSlugIsGitHubs(t *testing.T) {
	for text, want := range map[string]string{
		"Safety: violation rate":                            "safety-violation-rate",
		"c1's clock rate, % slow":                           "c1s-clock-rate--slow",
		"Simulator and real redis-server: do they agree?":   "simulator-and-real-redis-server-do-they-agree",
		"pause length / TTL":                                "pause-length--ttl",
		"Broken variants: is each one caught?":              "broken-variants-is-each-one-caught",
		"critical-section time after the lease check / TTL": "critical-section-time-after-the-lease-check--ttl",
		"gc_storm × floor †":                                "gc_storm--floor-",
	} {
		if got := Slug(text); got != want {
			t.Errorf("Slug(%q) = %q, want %q", text, got, want)
		}
		if a := githubAnchors("## " + text + "\n"); !a[want] {
			t.Errorf("the test's slugger gives %v for %q, want %q", a, text, want)
		}
	}
	s := Slugger{}
	if a, b, c := s.Next("Method"), s.Next("Method"), s.Next("Method"); a != "method" || b != "method-1" || c != "method-2" {
		t.Errorf("repeated slugs %q %q %q, want method, method-1, method-2", a, b, c)
	}
}

// TestReportDirLinks checks the links of a report written elsewhere (the
// committed reports/, a scratch report) when LOCKSIM_REPORT_LINKS names
// it, and prints the dead ones' count.
func TestReportDirLinks(t *testing.T) {
	dir := os.Getenv("LOCKSIM_REPORT_LINKS")
	if dir == "" {
		t.Skip("LOCKSIM_REPORT_LINKS is not set")
	}
	dead := deadLinks(t, dir)
	for _, d := range dead {
		t.Error(d)
	}
	t.Logf("%d dead links in %s", len(dead), dir)
}
