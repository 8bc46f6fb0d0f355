package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromium finds a headless browser for the page tests: $LOCKSIM_CHROMIUM,
// or chromium on the PATH (Debian's chromium package). Without one the
// test is skipped, but under CI=true, where .ci/run installs it, it
// fails.
func chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("LOCKSIM_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no chromium on the PATH (CI=true: .ci/run installs Debian's chromium)")
	}
	t.Skip("no chromium on the PATH: the browser test needs Debian's chromium")
	return ""
}

// browser opens a headless chromium for the test, which dies with the
// test process and is closed at the test's end.
func browser(t *testing.T) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(t)), chromedp.NoSandbox, chromedp.Headless, chromedp.DisableGPU,
		chromedp.ModifyCmdFunc(func(cmd *exec.Cmd) {
			if cmd.SysProcAttr == nil {
				cmd.SysProcAttr = &syscall.SysProcAttr{}
			}
			cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
		}))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	return ctx
}

// TestAdvisorFormIsAdvise: report.html's advisor form, in a real headless
// chromium from file://, gives for every combination of the questions
// the answer locksim advise --json gives from the evidence the report
// wrote beside it — field for field, and in what the page shows: the
// patterns to use, the none-safe line, the runner-up and the command.
func TestAdvisorFormIsAdvise(t *testing.T) {
	ctx := browser(t)
	out := t.TempDir()
	if _, _, err := runCLI(t, "report", "--seeds", "2", "--baseline-seeds", "1", "--sweep-seeds", "0", "--production-seeds", "1",
		"--bench", t.TempDir(), "--out", out, "--commit=false", "--real", filepath.Join("..", "reports", "real")); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute) // generous: a loaded machine
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+filepath.Join(out, "report.html")), chromedp.WaitVisible("#advisor-command")); err != nil {
		t.Fatalf("the report's form: %v", err)
	}
	keys, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Object.keys(JSON.parse(document.getElementById("advisor-data").textContent).index).sort()`))
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) < 500 {
		t.Fatalf("the form offers %d combinations; the model has hundreds", len(keys))
	}
	flags, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`JSON.parse(document.getElementById("advisor-data").textContent).dimensions.map(d => d.flag)`))
	if err != nil {
		t.Fatal(err)
	}
	evidence := filepath.Join(out, "evidence.json")
	for _, key := range keys {
		values := strings.Split(key, " ")
		// Pick the values as a user does: set each select, fire change.
		pick := fmt.Sprintf(`(() => { const vs = %s; const fs = %s;
			fs.forEach((f, i) => { const s = document.getElementById("advisor-" + f); s.value = vs[i]; s.dispatchEvent(new Event("change", {bubbles: true})); });
			const a = document.getElementById("advisor-answer");
			return {json: document.getElementById("advisor-json").textContent,
				use: [...document.querySelectorAll("#advisor-use li")].map(li => li.dataset.pattern),
				noneSafe: document.getElementById("advisor-none-safe") !== null,
				runnerUp: (document.getElementById("advisor-runner-up") || {textContent: ""}).textContent,
				real: [...document.querySelectorAll("#advisor-real li")].map(li => li.textContent),
				command: document.getElementById("advisor-command").textContent}; })()`, jsonText(values), jsonText(flags))
		page, err := chromedp.Run(ctx, chromedp.Evaluate[pageAnswer](pick))
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		args := []string{"advise", "--json", "--evidence", evidence}
		for i, f := range flags {
			args = append(args, "--"+f, values[i])
		}
		stdout, _, err := runCLI(t, args...)
		if err != nil {
			t.Fatalf("locksim %s: %v", strings.Join(args, " "), err)
		}
		var want, got map[string]any
		if err := json.Unmarshal([]byte(stdout), &want); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(page.JSON), &got); err != nil {
			t.Fatalf("%s: the page's answer: %v", key, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: the page's answer differs from locksim advise --json's:\npage:   %.600s\nadvise: %.600s", key, page.JSON, stdout)
		}
		var a struct {
			Use      []string `json:"use"`
			NoneSafe bool     `json:"none_safe"`
			RunnerUp *struct {
				Pattern string `json:"pattern"`
			} `json:"runner_up"`
			Real []struct {
				Text string `json:"text"`
			} `json:"real"`
		}
		_ = json.Unmarshal([]byte(stdout), &a)
		if fmt.Sprint(page.Use) != fmt.Sprint(a.Use) || page.NoneSafe != a.NoneSafe {
			t.Fatalf("%s: the page shows use %v, none safe %v; advise says %v, %v", key, page.Use, page.NoneSafe, a.Use, a.NoneSafe)
		}
		var real []string
		for _, rc := range a.Real {
			real = append(real, rc.Text)
		}
		if (len(real) == 0 && len(a.Use) > 0) || fmt.Sprint(page.Real) != fmt.Sprint(real) {
			t.Fatalf("%s: the page shows on real Redis %q; advise says %q (the committed agreement table was read)", key, page.Real, real)
		}
		if a.RunnerUp != nil && !strings.Contains(page.RunnerUp, a.RunnerUp.Pattern) {
			t.Fatalf("%s: the page's runner-up %q, advise's %s", key, page.RunnerUp, a.RunnerUp.Pattern)
		}
		if wantCmd := "locksim " + strings.Join(args[:1], " ") + " " + strings.Join(args[4:], " "); page.Command != wantCmd {
			t.Fatalf("%s: the page's command %q, want %q", key, page.Command, wantCmd)
		}
	}
}

// pageAnswer is what the form shows for one combination.
type pageAnswer struct {
	JSON     string   `json:"json"`
	Use      []string `json:"use"`
	NoneSafe bool     `json:"noneSafe"`
	RunnerUp string   `json:"runnerUp"`
	Real     []string `json:"real"`
	Command  string   `json:"command"`
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
