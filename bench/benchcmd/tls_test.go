package benchcmd

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/childproc"
	"github.com/locksim/locksim/locks/lockstest/redistest"
)

// selfSigned writes a certificate for 127.0.0.1 and its key to dir.
func selfSigned(t *testing.T, dir string) (cert, key string) {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	cert, key = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	for path, block := range map[string]*pem.Block{cert: {Type: "CERTIFICATE", Bytes: der}, key: {Type: "EC PRIVATE KEY", Bytes: kder}} {
		if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return cert, key
}

// startTLS starts a redis-server that speaks only TLS, with a password,
// and stops it when the test ends.
func startTLS(t *testing.T, password string) string {
	t.Helper()
	if !redistest.Available() {
		redistest.Require(t, 0) // skips, or fails under CI=true
	}
	dir := t.TempDir()
	cert, key := selfSigned(t, dir)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(redistest.Binary, "--port", "0", "--tls-port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--tls-cert-file", cert, "--tls-key-file", key, "--tls-ca-cert-file", cert, "--tls-auth-clients", "no",
		"--requirepass", password, "--save", "", "--appendonly", "no", "--dir", dir, "--loglevel", "warning")
	if err := childproc.Start(cmd); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	c := redis.NewClient(&redis.Options{Addr: addr, Password: password, TLSConfig: &tls.Config{InsecureSkipVerify: true}, DialerRetries: 1, MaxRetries: -1})
	defer c.Close()
	for deadline := time.Now().Add(10 * time.Second); ; {
		conn, err := net.DialTimeout("tcp", addr, 300*time.Millisecond) // listening yet? (go-redis logs refused dials)
		if err == nil {
			conn.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
			err = c.Ping(ctx).Err()
			cancel()
		}
		if err == nil {
			return addr
		}
		if time.Now().After(deadline) {
			t.Fatalf("TLS redis-server on %s: %v", addr, err)
		}
		time.Sleep(50 * time.Millisecond) // real time: a real redis-server starting
	}
}

// rediss:// reaches a TLS-only redis-server; redis:// to it fails (exit 3).
func TestRedissURLSpeaksTLS(t *testing.T) {
	addr := startTLS(t, "tlspw-2291")
	out, _, err := runBench(t, "--redis", "rediss://:tlspw-2291@"+addr+"/0?skip_verify=true", "--duration", "100ms", "--timeout", "2s")
	if err != nil || !strings.Contains(out, "basic") {
		t.Fatalf("bench over rediss://: %v\n%s", err, out)
	}
	_, _, err = runBench(t, "--redis", "redis://:tlspw-2291@"+addr, "--duration", "100ms", "--timeout", "500ms")
	if ExitCode(err) != ExitRuntime || strings.Contains(err.Error(), "tlspw-2291") {
		t.Errorf("bench over plain redis:// to a TLS port: exit %d, %v; want %d without the password", ExitCode(err), err, ExitRuntime)
	}
}
