package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/realmode"
)

// needLangClient skips (or, under CI=true, fails) when what c's
// reference client needs is not installed (make real-clients installs it).
func needLangClient(t *testing.T, c langClient) {
	t.Helper()
	needRealRedis(t)
	var missing string
	if strings.HasPrefix(c.Program, "node/") {
		dir, err := clientsDir()
		switch {
		case err != nil:
			missing = err.Error()
		case exec.Command("node", "--version").Run() != nil:
			missing = "node"
		default:
			if _, err := os.Stat(filepath.Join(dir, "node", "node_modules", "redlock")); err != nil {
				missing = "clients/node/node_modules (npm ci)"
			}
		}
	} else if exec.Command("/usr/bin/python3", "-c", "import redis").Run() != nil {
		missing = "Debian's python3-redis"
	}
	if missing == "" {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s: %s not installed, and CI=true requires the reference clients' tests to run (make real-clients)", c.Name, missing)
	}
	t.Skipf("%s: %s not installed (make real-clients)", c.Name, missing)
}

// TestLangClientsDescribeThemselves: what locksim list and real --help
// say of each reference client is what the client describes.
func TestLangClientsDescribeThemselves(t *testing.T) {
	for _, c := range langClients {
		t.Run(c.Name, func(t *testing.T) {
			needLangClient(t, c)
			argv, err := c.argv()
			if err != nil {
				t.Fatal(err)
			}
			p, err := realmode.Describe(argv, nil, c.Name)
			if err != nil {
				t.Fatal(err)
			}
			if p.Name != c.Name || p.Nodes != c.Nodes || p.Claims != c.Claims || p.Summary != c.Summary {
				t.Errorf("the client describes %+v;\nlangClients says %+v", p, c)
			}
		})
	}
}

// TestLangClientsGiveAVerdict (the CI subset): each reference client runs
// once under gc-pause, as locksim real --pattern NAME runs it, and the run
// comes back judged: no client failed, every client acquired.
func TestLangClientsGiveAVerdict(t *testing.T) {
	for _, c := range langClients {
		t.Run(c.Name, func(t *testing.T) {
			needLangClient(t, c)
			cfg, err := resolveReal(realFlags{pattern: c.Name, scenario: "gc-pause", runs: 1, parallel: 1, seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if !cfg.Library || cfg.Client[0] != mustArgv(t, c)[0] {
				t.Fatalf("config %+v: want a library subject run by %s", cfg, c.Program)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			res, err := realmode.Run(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if err := res.Err(); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s; %s", res.Summary(), res.StopsSummary(res.TTL))
			for _, cl := range res.Clients {
				if cl.Acquisitions == 0 {
					t.Errorf("%s acquired nothing in %v: %+v", cl.Name, res.Wall, res.Clients)
				}
			}
			if res.Linearizable == "" {
				t.Error("no porcupine verdict")
			}
		})
	}
}

func mustArgv(t *testing.T, c langClient) []string {
	t.Helper()
	argv, err := c.argv()
	if err != nil {
		t.Fatal(err)
	}
	return argv
}

// TestCheckClientCommand: locksim real --check-client passes each
// reference client (exit 0), and fails a client that only describes
// itself (exit 1, naming the missing fatal message).
func TestCheckClientCommand(t *testing.T) {
	for _, prog := range []string{"node/locksim-client.js", "python/locksim_client.py"} {
		var names []string
		for _, c := range langClients {
			if c.Program == prog {
				needLangClient(t, c)
				names = append(names, c.Name)
			}
		}
		out, _, err := runCLI(t, "real", "--check-client", mustArgv(t, langClient{Program: prog})[0], "--pattern", strings.Join(names, ","))
		if err != nil {
			t.Errorf("--check-client %s: %v\n%s", prog, err, out)
		}
		if want := "conforms to protocol 1 for " + strings.Join(names, ","); !strings.Contains(out, want) {
			t.Errorf("--check-client %s printed:\n%s\nwant %q", prog, out, want)
		}
	}
	needRealRedis(t)
	broken := filepath.Join(t.TempDir(), "describes-only")
	script := "#!/bin/sh\n[ -n \"$LOCKSIM_REAL_DESCRIBE\" ] && { echo '{\"name\":\"x\",\"nodes\":1,\"claims\":{\"Mutex\":true}}'; exit 0; }\nread setup\nexit 0\n"
	if err := os.WriteFile(broken, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCLI(t, "real", "--check-client", broken, "--pattern", "x")
	if exitCode(err) != exitViolation || !strings.Contains(out, "FAIL x fatal (unknown subject): exited without a fatal message") ||
		!strings.Contains(out, "FAIL x run:") {
		t.Errorf("--check-client of a client that only describes itself: exit %d (%v)\n%s\nwant exit %d, its fatal and run steps failed", exitCode(err), err, out, exitViolation)
	}
}

// TestLangClientWithoutItsPackages: a Node reference client whose
// packages npm ci has not installed is refused before it starts, exit 3,
// saying what it needs and that make real-clients installs it. Before,
// the run failed on Node's stack trace ("Cannot find module 'ioredis'").
func TestLangClientWithoutItsPackages(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"node/locksim-client.js", "python/locksim_client.py"} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), []byte("# a stand-in\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv(clientsEnv, dir)
	_, _, err := runCLI(t, "real", "--pattern", "node-redlock", "--scenario", "gc-pause", "--runs", "1")
	if exitCode(err) != exitRuntime || err == nil || !strings.Contains(err.Error(), "make real-clients") {
		t.Errorf("a node client without node_modules: exit %d, %v; want exit %d naming what is missing and make real-clients", exitCode(err), err, exitRuntime)
	}
}
