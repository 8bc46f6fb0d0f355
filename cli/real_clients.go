package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/realmode"
)

// langClient is a lock library of another language that real mode
// judges through a reference client of the repository's clients/
// directory (a program speaking docs/real-protocol.md). Its name, node
// count and claims are the ones the program describes (a test holds the
// two together); they are here so that locksim list and real --help show
// them without starting it.
type langClient struct {
	Name    string
	Summary string
	Nodes   int
	Claims  pattern.Claims
	Program string // under the clients directory
	Needs   string // what `make real-clients` installs for it
}

// clientsEnv names the clients directory when locksim does not run from
// the repository.
const clientsEnv = "LOCKSIM_CLIENTS"

var langClients = []langClient{
	{Name: "node-redlock", Nodes: 5, Claims: pattern.Claims{Mutex: true}, Program: "node/locksim-client.js", Needs: "node, npm ci in clients/node",
		Summary: "redlock 4 (node) over ioredis on 5 nodes; lock.extend every TTL/3; lock.expiration checked before the write"},
	{Name: "node-redis-semaphore", Nodes: 1, Claims: pattern.Claims{Mutex: true}, Program: "node/locksim-client.js", Needs: "node, npm ci in clients/node",
		Summary: "redis-semaphore's Mutex (node, ioredis); its refresh every 0.8 TTL; isAcquired checked before the write"},
	{Name: "node-redis-semaphore-sem", Nodes: 1, Claims: pattern.Claims{MaxHolders: pattern.SemaphorePermits}, Program: "node/locksim-client.js", Needs: "node, npm ci in clients/node",
		Summary: "redis-semaphore's Semaphore of 2 (node, ioredis); its refresh every 0.8 TTL; isAcquired checked before the write"},
	{Name: "py-redis-lock", Nodes: 1, Claims: pattern.Claims{Mutex: true}, Program: "python/locksim_client.py", Needs: "Debian's python3-redis",
		Summary: "redis-py's redis.lock.Lock (Debian's python3-redis); no renewal (it has none); lock.owned() checked before the write"},
}

// findLangClient is the reference client of name, if there is one.
func findLangClient(name string) (langClient, bool) {
	for _, c := range langClients {
		if c.Name == name {
			return c, true
		}
	}
	return langClient{}, false
}

// argv is the client's command line: its program under the clients
// directory.
func (c langClient) argv() ([]string, error) {
	dir, err := clientsDir()
	if err != nil {
		return nil, usagef("--pattern %s: %v", c.Name, err)
	}
	path := filepath.Join(dir, c.Program)
	if _, err := os.Stat(path); err != nil {
		return nil, usagef("--pattern %s: %v (set %s to the clients directory of the locksim repository)", c.Name, err, clientsEnv)
	}
	if err := c.installed(dir); err != nil {
		return nil, runtimef("--pattern %s: %v: the reference client needs %s (make real-clients installs it)", c.Name, err, c.Needs)
	}
	return []string{path}, nil
}

// installed reports what of the client's own needs is missing: for a
// Node client, node and the packages npm ci puts in clients/node (a
// client without them fails with Node's stack trace on its first
// require); a Python client says itself what it cannot import.
func (c langClient) installed(dir string) error {
	if !strings.HasPrefix(c.Program, "node/") {
		return nil
	}
	if _, err := exec.LookPath("node"); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(dir, "node", "node_modules")); err != nil {
		return fmt.Errorf("the node packages are not installed (%w)", err)
	}
	return nil
}

// clientsDir is $LOCKSIM_CLIENTS, or the clients directory of the
// repository the working directory is in.
func clientsDir() (string, error) {
	if d := os.Getenv(clientsEnv); d != "" {
		return filepath.Abs(d)
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := wd; ; d = filepath.Dir(d) {
		if st, err := os.Stat(filepath.Join(d, "clients", "node", "locksim-client.js")); err == nil && !st.IsDir() {
			return filepath.Join(d, "clients"), nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("the reference clients (clients/ of the locksim repository) are not in %s or above it: run locksim from the repository, or set %s", wd, clientsEnv)
		}
	}
}

// langClientsHelp lists the reference clients for real --help.
func langClientsHelp() string {
	var b strings.Builder
	b.WriteString("\n\nLibraries of other languages, judged through the reference clients of\nthe repository's clients/ (`make real-clients` installs what they need;\nrun from the repository, or set " + clientsEnv + "); --pattern takes their\nnames without --client:\n\n")
	for _, c := range langClients {
		fmt.Fprintf(&b, "  %-25s %s\n", c.Name, c.Summary)
	}
	b.WriteString(`
--check-client CMD runs the conformance check of the client program CMD
for each subject --pattern names (comma-separated): its description
(` + "LOCKSIM_REAL_DESCRIBE" + `), a fatal message for an unknown subject and for an
unknown protocol version, and a short run on a real redis-server, with a
slow step and a pause, that must bring every message kind of the
workload; a message the protocol refuses fails it, naming the field
(docs/real-protocol.md). Exit 0 when every step passed, 1 when one failed.`)
	return b.String()
}

// runCheckClient is real --check-client.
func runCheckClient(ctx context.Context, w io.Writer, f realFlags) error {
	if f.pattern == "" {
		return usagef("--check-client needs --pattern: the subject(s) of the client to check, comma-separated")
	}
	argv, err := programArgv("--check-client", f.checkClient)
	if err != nil {
		return err
	}
	ctx, stop := interruptible(ctx)
	defer stop()
	var failed []string
	for _, name := range listFlag(f.pattern) {
		c, err := realmode.CheckClient(ctx, argv, nil, name, "")
		if err != nil {
			return realError(err)
		}
		c.Write(w)
		if c.Err() != nil {
			failed = append(failed, name)
		}
	}
	if len(failed) > 0 {
		return violationError{fmt.Sprintf("real: %s does not conform for %s", f.checkClient, strings.Join(failed, ", "))}
	}
	fmt.Fprintf(w, "%s conforms to protocol %d for %s\n", f.checkClient, realmode.ProtocolVersion, f.pattern)
	return nil
}

// langTableClients gives each library of --libraries that is a reference
// client its own program; the others need --lib-client.
func langTableClients(names []string) (map[string][]string, []string, error) {
	own := map[string][]string{}
	var rest []string
	for _, n := range names {
		c, ok := findLangClient(n)
		if !ok {
			rest = append(rest, n)
			continue
		}
		argv, err := c.argv()
		if err != nil {
			return nil, nil, err
		}
		own[n] = argv
	}
	return own, rest, nil
}
