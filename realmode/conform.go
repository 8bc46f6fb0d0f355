package realmode

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/fault"
	"github.com/locksim/locksim/sim/scenario"
)

// The conformance check (locksim real --check-client) runs a client
// program through the protocol against real redis-servers, step by step:
// its description, its refusal of a setup it cannot run (an unknown
// subject, an unknown protocol version), and a short run whose workload
// makes it send every message kind the workload has, under a slow step
// and a pause. Each step passes or fails with the reason; a message the
// protocol refuses fails the run step with the coordinator's error, which
// names the field.

// ConformStep is one step of the conformance check.
type ConformStep struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

// Conformance is the conformance check of one client program for one of
// its subjects.
type Conformance struct {
	Subject string        `json:"subject"`
	Steps   []ConformStep `json:"steps"`
}

// Err is nil when every step passed, else the failed steps, named.
func (c Conformance) Err() error {
	var failed []string
	for _, s := range c.Steps {
		if !s.OK {
			failed = append(failed, s.Name+": "+s.Detail)
		}
	}
	if len(failed) == 0 {
		return nil
	}
	return fmt.Errorf("realmode: client does not conform for %s: %s", c.Subject, strings.Join(failed, "; "))
}

// Write prints the steps, one a line.
func (c Conformance) Write(w io.Writer) {
	for _, s := range c.Steps {
		mark := "ok  "
		if !s.OK {
			mark = "FAIL"
		}
		fmt.Fprintf(w, "%s %s %s: %s\n", mark, c.Subject, s.Name, s.Detail)
	}
}

// requiredKinds are the messages the conformance run must receive: the
// workload's (the careful client's check included); fatal is the refusal
// steps', and the notices are optional (a client that cannot tell loss
// sends no lost; one with no heartbeat no stall).
var requiredKinds = []string{msgReady, msgInvoke, msgReturn, msgPoint, msgRead, msgWrite, msgCheck}

// conformDeadline bounds each step's wait for a client's message.
const conformDeadline = 30 * time.Second

// CheckClient runs the conformance check of the client program argv
// (env added to its environment) for its subject name. server is the
// redis-server executable ("" for redis-server on PATH). An error means
// the check could not be made (no redis-server, ctx done); a client that
// does not conform is in the Conformance's steps.
func CheckClient(ctx context.Context, argv, env []string, name, server string) (Conformance, error) {
	c := Conformance{Subject: name}
	add := func(step string, err error, ok string) {
		if err != nil {
			c.Steps = append(c.Steps, ConformStep{Name: step, Detail: err.Error()})
			return
		}
		c.Steps = append(c.Steps, ConformStep{Name: step, OK: true, Detail: ok})
	}
	p, err := describeStep(argv, env, name)
	add("describe", err, fmt.Sprintf("%d node(s), claims %s", p.Nodes, strings.Join(p.Claims.Names(), ",")))
	if err != nil {
		return c, nil
	}
	srv, err := startServer(ctx, ServerConfig{Name: "n1", Binary: server})
	if err != nil {
		return c, err
	}
	defer srv.Stop()
	bad := Setup{Protocol: ProtocolVersion, Name: "c1", Pattern: "locksim-conformance-no-such-subject", Key: "locksim:conformance"}
	why, err := refusalStep(ctx, argv, env, srv, p.Nodes, bad)
	add("fatal (unknown subject)", err, why)
	bad.Pattern, bad.Protocol = name, ProtocolVersion+1
	why, err = refusalStep(ctx, argv, env, srv, p.Nodes, bad)
	add(fmt.Sprintf("fatal (protocol version %d)", ProtocolVersion+1), err, why)
	srv.Stop()
	res, err := Run(ctx, Config{Pattern: p, Scenario: conformScenario(), Seed: 1, Client: argv, ClientEnv: env, Server: server,
		Library: !inCatalog(name)})
	if ctx.Err() != nil {
		return c, ctx.Err()
	}
	sent, err := runStep(res, err)
	add("run", err, sent)
	return c, nil
}

func inCatalog(name string) bool {
	_, err := pattern.Lookup(name)
	return err == nil
}

// describeStep asks the client for its description, which must name the
// subject asked for, a node count and a claim.
func describeStep(argv, env []string, name string) (pattern.Pattern, error) {
	p, err := Describe(argv, env, name)
	switch {
	case err != nil:
		return p, err
	case p.Name != name:
		return p, fmt.Errorf("field \"name\": %q, asked for %q", p.Name, name)
	case p.Nodes < 1:
		return p, fmt.Errorf("field \"nodes\": %d, want 1 or more", p.Nodes)
	case len(p.Claims.Names()) == 0:
		return p, errors.New("field \"claims\": no claim (mutex, max-holders, …): nothing to judge")
	}
	return p, nil
}

// refusalStep starts the client with a setup it cannot run and waits for
// its fatal message.
func refusalStep(ctx context.Context, argv, env []string, srv *Server, nodes int, setup Setup) (string, error) {
	for range nodes {
		setup.Addrs = append(setup.Addrs, srv.Addr())
	}
	setup.TTL, setup.Timeout = time.Second, time.Second
	setup.Workload = scenario.Default().Workload
	pr, err := startProc("c1", argv, env, setup)
	if err != nil {
		return "", err
	}
	defer pr.kill()
	got := make(chan error, 1)
	var m Msg
	go func() { got <- pr.c.recvMsg(&m) }()
	limit := time.NewTimer(conformDeadline)
	defer limit.Stop()
	select {
	case err = <-got:
	case <-limit.C:
		return "", fmt.Errorf("no message in %v (want fatal)", conformDeadline)
	case <-ctx.Done():
		return "", ctx.Err()
	}
	switch {
	case errors.Is(err, errProtocol):
		return "", err
	case err != nil:
		return "", fmt.Errorf("exited without a fatal message: %s", pr.failure())
	case m.Kind != msgFatal:
		return "", fmt.Errorf("field \"kind\": %q, want %q for a setup it cannot run", m.Kind, msgFatal)
	}
	return "fatal: " + m.Err, nil
}

// runStep judges the conformance run: no client failed, and every
// required kind came.
func runStep(res *Result, err error) (string, error) {
	if err != nil {
		return "", err
	}
	if err := res.Err(); err != nil {
		return "", err
	}
	var missing, sent []string
	for _, k := range MessageKinds {
		if n := res.Messages[k]; n > 0 {
			sent = append(sent, fmt.Sprintf("%s %d", k, n))
		} else if slices.Contains(requiredKinds, k) {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return "", fmt.Errorf("no %s message in a %v run (sent: %s)", strings.Join(missing, ", no "), res.Wall.Round(time.Millisecond), strings.Join(sent, ", "))
	}
	if res.Messages[msgLost] == 0 {
		sent = append(sent, "no lost (optional)")
	}
	if res.Messages[msgStall] == 0 {
		sent = append(sent, "no stall (optional)")
	}
	return fmt.Sprintf("%s; %s", strings.Join(sent, ", "), res.Summary()), nil
}

// conformScenario is two clients with the careful client's check, a
// slow step (a point's reply asks for a sleep) and a pause past the TTL
// before a write (a stall; a lost notice where the client tells loss).
func conformScenario() scenario.Scenario {
	s := scenario.Default()
	s.Name, s.Summary = "conformance", "every message kind: a slow step, a pause past the TTL"
	s.Duration = 2 * time.Second
	s.Faults = []fault.Fault{
		{Kind: fault.Slow, Target: "c1", When: fault.When{Client: "c1", Point: fault.Work, N: 1}, For: 30 * time.Millisecond},
		{Kind: fault.Pause, Target: "c1", When: fault.When{Client: "c1", Point: fault.Write, N: 2}, For: 250 * time.Millisecond},
	}
	return s
}
