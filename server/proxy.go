package server

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// loopback are the networks that -behind-proxy trusts: a proxy on the
// server's own machine.
var loopback = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}

// trusted reports whether a is in one of the prefixes.
func trusted(proxies []netip.Prefix, a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range proxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// forwardedClient returns the client's address of a request that came
// from peer carrying the X-Forwarded-For values xff. Each proxy appends
// the address of its own peer, so the list is read from the right: while
// an entry is a trusted proxy, the one before it was written by that
// proxy and is believed; the first entry that is not a trusted proxy is
// the client. Entries further left are the client's to write and never
// read. If the peer is not trusted, the header is the client's too, and
// the peer is the client. If every entry is trusted, the leftmost is the
// client; an entry that is no address stops the walk at the hop after
// it, which is the last address known.
func forwardedClient(proxies []netip.Prefix, peer netip.Addr, xff []string) netip.Addr {
	client := peer.Unmap()
	if !trusted(proxies, client) {
		return client
	}
	for i := len(xff) - 1; i >= 0; i-- {
		entries := strings.Split(xff[i], ",")
		for j := len(entries) - 1; j >= 0; j-- {
			e := strings.TrimSpace(entries[j])
			if e == "" {
				continue
			}
			a, err := netip.ParseAddr(e)
			if err != nil {
				return client
			}
			client = a.Unmap()
			if !trusted(proxies, client) {
				return client
			}
		}
	}
	return client
}

// fromProxies makes the X-Forwarded-For and X-Forwarded-Proto headers
// mean what they say when, and only when, the request's TCP peer is one
// of the trusted proxies: the request's RemoteAddr becomes the client's
// (forwardedClient), so that the limits and throttles count clients, not
// the proxy. From any other peer both headers are removed, so that no
// client can choose its address or claim TLS.
func fromProxies(proxies []netip.Prefix, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, err := net.SplitHostPort(r.RemoteAddr)
		peer, perr := netip.ParseAddr(host)
		if err != nil || perr != nil || !trusted(proxies, peer) {
			if r.Header.Get("X-Forwarded-For") != "" || r.Header.Get("X-Forwarded-Proto") != "" {
				r = r.Clone(r.Context())
				r.Header.Del("X-Forwarded-For")
				r.Header.Del("X-Forwarded-Proto")
			}
			next.ServeHTTP(w, r)
			return
		}
		if xff := r.Header.Values("X-Forwarded-For"); len(xff) > 0 {
			r2 := *r
			r2.RemoteAddr = net.JoinHostPort(forwardedClient(proxies, peer, xff).String(), "0")
			r = &r2
		}
		next.ServeHTTP(w, r)
	})
}
