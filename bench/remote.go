package bench

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// DefaultTimeout bounds each call to a node when a Target sets none: a
// node that stops answering fails the run within it.
const DefaultTimeout = 3 * time.Second

// ErrUnanswered marks a node that stopped answering during a sweep.
var ErrUnanswered = errors.New("stopped answering")

// Remote is a target of running Redis servers. Each spec is an address
// (host:port) or a redis:// or rediss:// URL, which may carry an ACL user,
// a password, a database number and (rediss) TLS. Addrs and every message
// show a URL without its password.
func Remote(specs []string) (*Target, error) {
	if len(specs) == 0 {
		return nil, errors.New("bench: --redis needs at least one address")
	}
	t := &Target{Name: "redis-server"}
	for i, spec := range specs {
		o, shown, err := parseNode(strings.TrimSpace(spec))
		if err != nil {
			return nil, fmt.Errorf("bench: redis address %d: %w", i+1, err)
		}
		t.opts = append(t.opts, o)
		t.Addrs = append(t.Addrs, shown)
	}
	return t, nil
}

// parseNode reads one spec: the options to dial it and the form to show.
func parseNode(spec string) (*redis.Options, string, error) {
	if spec == "" {
		return nil, "", errors.New("empty")
	}
	if !strings.Contains(spec, "://") {
		return &redis.Options{Addr: spec}, spec, nil
	}
	u, err := url.Parse(spec)
	if err != nil {
		// url's message quotes the whole URL, password included.
		return nil, "", errors.New("not a valid URL (want redis://[user:password@]host:port[/db] or rediss://...)")
	}
	shown := redacted(u)
	if u.Scheme != "redis" && u.Scheme != "rediss" {
		return nil, "", fmt.Errorf("%s: scheme %q, want redis or rediss", shown, u.Scheme)
	}
	o, err := redis.ParseURL(spec)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %s", shown, hideSecrets(err.Error(), u))
	}
	return o, shown, nil
}

// redacted is u with its password (in the user info or the query) hidden.
func redacted(u *url.URL) string {
	v := *u
	if q := v.Query(); q.Has("password") {
		q.Set("password", "xxxxx")
		v.RawQuery = q.Encode()
	}
	return v.Redacted()
}

// hideSecrets removes u's password from a message.
func hideSecrets(msg string, u *url.URL) string {
	for _, pw := range passwords(u) {
		if pw != "" {
			msg = strings.ReplaceAll(msg, pw, "xxxxx")
		}
	}
	return msg
}

func passwords(u *url.URL) []string {
	var out []string
	if pw, ok := u.User.Password(); ok {
		out = append(out, pw, url.QueryEscape(pw), url.PathEscape(pw))
	}
	return append(out, u.Query()["password"]...)
}

// options returns the dial options of node i with the target's timeout,
// a pool of pool connections, and no retries or dial retries (a failure is
// a failure, not a hidden delay).
func (t *Target) options(i, pool int) *redis.Options {
	var o redis.Options
	if t.opts != nil && t.opts[i] != nil {
		o = *t.opts[i]
	} else {
		o.Addr = t.Addrs[i]
	}
	to := t.Timeout
	if to <= 0 {
		to = DefaultTimeout
	}
	o.PoolSize, o.DialerRetries, o.MaxRetries = pool, 1, -1
	o.DialTimeout, o.ReadTimeout, o.WriteTimeout, o.PoolTimeout = to, to, to, to
	o.ContextTimeoutEnabled = true
	return &o
}
