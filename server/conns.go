package server

import (
	"fmt"
	"net"
	"net/netip"
	"sync"
	"time"

	"emergo/throttle"
)

// The connections: a server reached without a proxy counts the open
// connections of every client (throttle.ClientKey of the peer) and in
// all, and refuses one beyond either bound at once, with a JSON answer,
// rather than letting one client hold every descriptor of the process.
// Behind a proxy the peer is the proxy, whose connections are its
// clients', so a trusted proxy is not counted per client (the proxy
// bounds its clients: docs/deploy/nginx.conf), only in the total.

// Listener returns ln with the server's bounds on open connections
// (Config.MaxConns in all, Config.MaxClientConns per client): a
// connection past either is answered 503 or 429 with the API's JSON error
// and closed.
func (s *Server) Listener(ln net.Listener) net.Listener {
	return &boundedListener{Listener: ln, s: s, open: map[string]int{}}
}

type boundedListener struct {
	net.Listener
	s *Server

	mu    sync.Mutex
	open  map[string]int // by client key
	total int
}

// Accept returns the next connection within the bounds; those beyond
// them are refused in the background, so that a flood does not slow the
// accepting of others.
func (l *boundedListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		key, counted := l.keyOf(c)
		status, code, msg := l.admit(key, counted)
		if status == 0 {
			return &boundedConn{Conn: c, l: l, key: key, counted: counted}, nil
		}
		l.s.metrics.connsRefused.Add(1)
		go refuseConn(c, status, code, msg)
	}
}

// keyOf is the client key of c's peer, and whether the peer is counted
// per client (not a trusted proxy).
func (l *boundedListener) keyOf(c net.Conn) (string, bool) {
	ap, err := netip.ParseAddrPort(c.RemoteAddr().String())
	if err != nil {
		return c.RemoteAddr().String(), true
	}
	return throttle.ClientKey(ap.Addr().String()), !trusted(l.s.cfg.TrustedProxies, ap.Addr())
}

// admit counts a new connection of key, or says why it is refused.
func (l *boundedListener) admit(key string, counted bool) (int, string, string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.total >= l.s.cfg.MaxConns {
		return 503, codeServerBusy, "the server has as many connections as it takes: try again in a moment"
	}
	if counted && l.open[key] >= l.s.cfg.MaxClientConns {
		return 429, codeTooManyConns, fmt.Sprintf("too many open connections from your address (%d at most)", l.s.cfg.MaxClientConns)
	}
	l.total++
	if counted {
		l.open[key]++
	}
	l.s.metrics.conns.Add(1)
	return 0, "", ""
}

// release uncounts a connection of key.
func (l *boundedListener) release(key string, counted bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.total--
	if counted {
		if l.open[key]--; l.open[key] <= 0 {
			delete(l.open, key)
		}
	}
	l.s.metrics.conns.Add(-1)
}

// refuseConn answers a refused connection with status and the API's JSON
// error, then closes it; a peer that does not read within a second is
// closed all the same.
func refuseConn(c net.Conn, status int, code, msg string) {
	defer c.Close()
	body := fmt.Sprintf(`{"error":%q,"code":%q}`+"\n", msg, code)
	c.SetDeadline(time.Now().Add(time.Second))
	// The request's first bytes are read, so that closing with them
	// unread does not reset the connection before the answer is read.
	var buf [4096]byte
	c.Read(buf[:])
	fmt.Fprintf(c, "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nRetry-After: 1\r\nConnection: close\r\n\r\n%s",
		status, statusText(status), len(body), body)
}

func statusText(status int) string {
	if status == 429 {
		return "Too Many Requests"
	}
	return "Service Unavailable"
}

// boundedConn uncounts itself once, when closed.
type boundedConn struct {
	net.Conn
	l       *boundedListener
	key     string
	counted bool
	once    sync.Once
}

func (c *boundedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.l.release(c.key, c.counted) })
	return err
}
