package bench

import (
	"strings"
	"testing"
)

func TestRemoteReadsURLsAndHidesPasswords(t *testing.T) {
	tg, err := Remote([]string{"127.0.0.1:7000", "redis://app:s3cret-77@10.0.0.2:6380/2", "rediss://:tlspw-88@redis.example:6390"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"127.0.0.1:7000", "redis://app:xxxxx@10.0.0.2:6380/2", "rediss://:xxxxx@redis.example:6390"}
	for i, w := range want {
		if tg.Addrs[i] != w {
			t.Errorf("Addrs[%d] = %q, want %q", i, tg.Addrs[i], w)
		}
	}
	if o := tg.options(1, 4); o.Username != "app" || o.Password != "s3cret-77" || o.DB != 2 || o.Addr != "10.0.0.2:6380" || o.TLSConfig != nil {
		t.Errorf("options(1) = user %q, db %d, addr %q, tls %v; want app, 2, 10.0.0.2:6380, no TLS", o.Username, o.DB, o.Addr, o.TLSConfig != nil)
	}
	if o := tg.options(2, 4); o.Password != "tlspw-88" || o.TLSConfig == nil || o.TLSConfig.ServerName != "redis.example" {
		t.Errorf("options(2): password set %v, TLS %+v; want the password and TLS for redis.example", o.Password != "", o.TLSConfig)
	}
	if o := tg.options(0, 4); o.ReadTimeout != DefaultTimeout || !o.ContextTimeoutEnabled || o.MaxRetries != -1 {
		t.Errorf("options(0): read timeout %v, context timeouts %v, retries %d; want %v, true, -1", o.ReadTimeout, o.ContextTimeoutEnabled, o.MaxRetries, DefaultTimeout)
	}
}

func TestRemoteErrorsNeverShowThePassword(t *testing.T) {
	for _, spec := range []string{
		"redis://app:s3cret-77@host:1/notadb",
		"redis://app:s3cret-77@host:1/0?dial_timeout=banana",
		"redis://app:s3cret%zz-77@host:1",
		"ftp://app:s3cret-77@host:1",
		"redis://app@host:1/0?password=s3cret-77&db=x",
		" ",
	} {
		_, err := Remote([]string{"127.0.0.1:1", spec})
		if err == nil {
			t.Errorf("Remote(%q) = nil error, want one", spec)
			continue
		}
		if strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "redis address 2") {
			t.Errorf("Remote(%q) = %v: want it to name address 2 and not show the password", spec, err)
		}
	}
}
