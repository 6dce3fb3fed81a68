package server_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"emergo/server"
	"emergo/store/sqlstore"
)

// TestBehindNginx runs docs/deploy/nginx.conf, the example of
// docs/deploy.md, as it is (its ports, addresses and certificate paths
// replaced) in front of two servers on one PostgreSQL, and plays through
// it over TLS: the events of a game arrive as they happen, not when a
// buffer fills, whichever instances serve the stream and the moves; the
// servers see the client's address, not the proxy's nor one the client
// wrote; and the session cookie is Secure.
func TestBehindNginx(t *testing.T) {
	bin, err := exec.LookPath("nginx")
	if err != nil {
		t.Skip("nginx test skipped: no nginx in PATH (Debian: apt-get install --no-install-recommends nginx); .ci/run installs it")
	}
	dsn := os.Getenv("EMERGO_TEST_POSTGRES")
	if dsn == "" {
		t.Skip("nginx test skipped: it needs PostgreSQL for its two servers: set EMERGO_TEST_POSTGRES to a connection URL; .ci/run does")
	}
	schema := pgSchema(t, dsn)
	// Every request is logged, in the log of its server and in all.
	all, logs := newLogLines(), []*logLines{newLogLines(), newLogLines()}
	var upstreams []string
	var first *env
	for i := range 2 {
		st := openPostgres(t, schema).(*sqlstore.DB)
		feed, err := st.Feed(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		e := accountEnv(t, server.Config{
			Store: st, Feed: feed,
			TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")},
			Logger:         slog.New(slog.NewTextHandler(io.MultiWriter(all, logs[i]), &slog.HandlerOptions{Level: slog.LevelDebug})),
		})
		upstreams = append(upstreams, strings.TrimPrefix(e.ts.URL, "http://"))
		if first == nil {
			first = e
		}
	}
	url, roots := startNginx(t, bin, upstreams)
	// The clients of e talk to nginx, from 127.0.0.2, over HTTP/2 as
	// browsers do; e1 over HTTP/1.1, where nginx would buffer the events
	// if it were let.
	e := &env{t: t, srv: first.srv, ts: &httptest.Server{URL: url}, rt: proxyTransport(t, roots, true)}
	e1 := &env{t: t, srv: first.srv, ts: e.ts, rt: proxyTransport(t, roots, false)}

	t.Run("Events", func(t *testing.T) { proxiedEventsTest(t, e) })
	t.Run("EventsOverHTTP1", func(t *testing.T) { proxiedEventsTest(t, e1) })
	// nginx sends the requests to the servers in turn: each has served
	// some of the above.
	for _, l := range logs {
		l.await(t, "path=/api/")
	}
	t.Run("ClientAddress", func(t *testing.T) {
		path := fmt.Sprintf("/api/games/no-such-game-%d", time.Now().UnixNano())
		if code, _, body := e.client().do("GET", path, nil, "X-Forwarded-For", "203.0.113.66"); code != http.StatusNotFound {
			t.Fatalf("GET %s: %d %s", path, code, body)
		}
		line := all.await(t, "path="+path+" ")
		if !strings.HasSuffix(line, " client=127.0.0.2") {
			t.Errorf("the server logged the request as:\n%s\nwant client=127.0.0.2", line)
		}
	})
	t.Run("SecureCookie", func(t *testing.T) {
		c := e.client()
		req, _ := http.NewRequest("POST", url+"/api/account/signup", strings.NewReader(`{"username": "proxied", "password": "password1"}`))
		resp, err := c.c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("signup: %d", resp.StatusCode)
		}
		for _, k := range resp.Cookies() {
			if k.Name == "emergo_session" && !k.Secure {
				t.Errorf("the session cookie is not Secure: %s", k)
			}
		}
	})
}

// proxiedEventsTest: a viewer's event stream, through the proxy, shows
// a move as soon as it is made, while the stream goes on. The servers
// behind the proxy may learn of a change a moment after it is answered
// (their feed), so the test waits for the join before it moves.
func proxiedEventsTest(t *testing.T, e *env) {
	id, a, b := friendGame(t, e, nil)
	_, joined, _ := b.do("GET", "/api/games/"+id, nil)
	stream := events[state](t, e.client(), "/api/games/"+id+"/events")
	await(t, "the join", stream, func(st state) bool { return st.Version >= joined.Version })
	if code, _ := a.move(id, "c3", 0); code != http.StatusOK {
		t.Fatalf("move: %d", code)
	}
	await(t, "the move", stream, func(st state) bool { return len(st.Moves) == 1 && st.Moves[0] == "c3" })
}

// startNginx runs nginx with docs/deploy/nginx.conf in front of the
// upstreams, on a port of 127.0.0.1 with a certificate made for it, and
// returns its https URL and the pool that trusts the certificate.
func startNginx(t *testing.T, bin string, upstreams []string) (string, *x509.CertPool) {
	t.Helper()
	dir := t.TempDir()
	cert, key, roots := selfSigned(t, dir)
	text, err := os.ReadFile("../docs/deploy/nginx.conf")
	if err != nil {
		t.Fatal(err)
	}
	site := string(text)
	port, plain := freePort(t), freePort(t)
	for _, r := range []struct{ old, new string }{
		{"server 127.0.0.1:8081;", "server " + upstreams[0] + ";"},
		{"server 127.0.0.1:8082;", "server " + upstreams[1] + ";"},
		{"listen 80;", "listen " + plain + ";"},
		{"listen [::]:80;", ""},
		{"listen 443 ssl http2;", "listen " + port + " ssl http2;"},
		{"listen [::]:443 ssl http2;", ""},
		{"/etc/ssl/emergo/fullchain.pem", cert},
		{"/etc/ssl/emergo/privkey.pem", key},
	} {
		if !strings.Contains(site, r.old) {
			t.Fatalf("docs/deploy/nginx.conf has no %q: the test replaces it", r.old)
		}
		site = strings.ReplaceAll(site, r.old, r.new)
	}
	// The rest of an nginx.conf, all of it in dir: one process, in the
	// foreground, writing nothing elsewhere.
	conf := fmt.Sprintf(`daemon off;
master_process off;
pid %[1]s/nginx.pid;
error_log %[1]s/error.log info;
events { worker_connections 256; }
http {
	access_log %[1]s/access.log;
	client_body_temp_path %[1]s/body;
	proxy_temp_path %[1]s/proxy;
	fastcgi_temp_path %[1]s/fastcgi;
	uwsgi_temp_path %[1]s/uwsgi;
	scgi_temp_path %[1]s/scgi;
	include %[1]s/site.conf;
}
`, dir)
	for name, text := range map[string]string{"site.conf": site, "nginx.conf": conf} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, "-p", dir, "-c", filepath.Join(dir, "nginx.conf"), "-e", filepath.Join(dir, "error.log"))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
	})
	errorLog := func() string {
		data, _ := os.ReadFile(filepath.Join(dir, "error.log"))
		return out.String() + string(data)
	}
	deadline := time.Now().Add(patience)
	for {
		c, err := net.Dial("tcp", port)
		if err == nil {
			c.Close()
			break
		}
		select {
		case err := <-exited:
			t.Fatalf("nginx stopped: %v\n%s", err, errorLog())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("nginx does not listen on %s after %v:\n%s", port, patience, errorLog())
		}
	}
	return "https://" + port, roots
}

// proxyTransport connects from 127.0.0.2 to a server with a certificate
// of roots, over HTTP/2 if h2, else HTTP/1.1.
func proxyTransport(t *testing.T, roots *x509.CertPool, h2 bool) http.RoundTripper {
	rt := &http.Transport{
		TLSClientConfig:   &tls.Config{RootCAs: roots},
		DialContext:       (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 2)}}).DialContext,
		ForceAttemptHTTP2: h2,
	}
	if !h2 {
		rt.TLSNextProto = map[string]func(string, *tls.Conn) http.RoundTripper{}
	}
	t.Cleanup(rt.CloseIdleConnections)
	return rt
}

// selfSigned writes a certificate of 127.0.0.1 and its key in dir, and
// returns their paths and the pool that trusts it.
func selfSigned(t *testing.T, dir string) (string, string, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "emergo test"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	for file, block := range map[string]*pem.Block{certFile: {Type: "CERTIFICATE", Bytes: der}, keyFile: {Type: "PRIVATE KEY", Bytes: kder}} {
		if err := os.WriteFile(file, pem.EncodeToMemory(block), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	roots := x509.NewCertPool()
	roots.AddCert(cert)
	return certFile, keyFile, roots
}

// freePort returns an address of 127.0.0.1 with a port free just now.
func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// logLines is a log that the test can wait on: it keeps every line
// written and wakes the waiters at each.
type logLines struct {
	mu    sync.Mutex
	lines []string
	more  chan struct{} // closed and replaced at each write
}

func newLogLines() *logLines { return &logLines{more: make(chan struct{})} }

func (l *logLines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, strings.Split(strings.TrimRight(string(p), "\n"), "\n")...)
	close(l.more)
	l.more = make(chan struct{})
	return len(p), nil
}

// await returns the first line that holds text, waiting for it.
func (l *logLines) await(t *testing.T, text string) string {
	t.Helper()
	timeout := time.After(patience)
	for {
		l.mu.Lock()
		for _, line := range l.lines {
			if strings.Contains(line, text) {
				l.mu.Unlock()
				return line
			}
		}
		more := l.more
		l.mu.Unlock()
		select {
		case <-more:
		case <-timeout:
			t.Fatalf("no line with %q logged within %v", text, patience)
		}
	}
}
