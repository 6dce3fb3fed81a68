package server

import (
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
)

func prefixes(t *testing.T, ps ...string) []netip.Prefix {
	t.Helper()
	var out []netip.Prefix
	for _, p := range ps {
		out = append(out, netip.MustParsePrefix(p))
	}
	return out
}

// The client of a request is the rightmost X-Forwarded-For entry that is
// not a trusted proxy, and only when the peer is trusted.
func TestForwardedClient(t *testing.T) {
	one := []string{"10.0.0.5/32"}
	two := []string{"10.0.0.5/32", "192.0.2.0/24"}
	for _, tt := range []struct {
		name    string
		proxies []string
		peer    string
		xff     []string
		want    string
	}{
		{"no proxies", nil, "203.0.113.9", []string{"198.51.100.1"}, "203.0.113.9"},
		{"untrusted peer", one, "203.0.113.9", []string{"198.51.100.1"}, "203.0.113.9"},
		{"trusted peer, no header", one, "10.0.0.5", nil, "10.0.0.5"},
		{"trusted peer", one, "10.0.0.5", []string{"198.51.100.1"}, "198.51.100.1"},
		{"a written entry is not read", one, "10.0.0.5", []string{"1.2.3.4, 198.51.100.1"}, "198.51.100.1"},
		{"several header lines", one, "10.0.0.5", []string{"1.2.3.4", "198.51.100.1"}, "198.51.100.1"},
		{"two proxies", two, "10.0.0.5", []string{"1.2.3.4, 198.51.100.1, 192.0.2.7"}, "198.51.100.1"},
		{"a client in a proxy's network is trusted", two, "10.0.0.5", []string{"1.2.3.4, 192.0.2.7"}, "1.2.3.4"},
		{"every entry trusted", two, "10.0.0.5", []string{"192.0.2.8, 192.0.2.7"}, "192.0.2.8"},
		{"garbage stops at the hop after it", two, "10.0.0.5", []string{"1.2.3.4, nonsense, 192.0.2.7"}, "192.0.2.7"},
		{"garbage from the proxy's peer", one, "10.0.0.5", []string{"nonsense"}, "10.0.0.5"},
		{"empty entries skipped", one, "10.0.0.5", []string{"198.51.100.1, ,"}, "198.51.100.1"},
		{"spaces", one, "10.0.0.5", []string{"  198.51.100.1  "}, "198.51.100.1"},
		{"IPv6", []string{"::1/128"}, "::1", []string{"2001:db8::1"}, "2001:db8::1"},
		{"IPv4 in IPv6", one, "::ffff:10.0.0.5", []string{"::ffff:198.51.100.1"}, "198.51.100.1"},
		{"loopback", loopbackStrings(), "127.0.0.1", []string{"198.51.100.1"}, "198.51.100.1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := forwardedClient(prefixes(t, tt.proxies...), netip.MustParseAddr(tt.peer), tt.xff)
			if got.String() != tt.want {
				t.Errorf("client %s, want %s", got, tt.want)
			}
		})
	}
}

func loopbackStrings() []string {
	var out []string
	for _, p := range loopback {
		out = append(out, p.String())
	}
	return out
}

// The headers reach the handlers from a trusted peer, as the client's
// address, and are removed from any other.
func TestFromProxies(t *testing.T) {
	for _, tt := range []struct {
		name      string
		peer      string
		addr      string // the RemoteAddr the handler sees
		forwarded bool   // whether the handler sees the headers
	}{
		{"trusted", "10.0.0.5:4000", "198.51.100.1:0", true},
		{"untrusted", "203.0.113.9:4000", "203.0.113.9:4000", false},
		{"unparsable peer", "somewhere", "somewhere", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got *http.Request
			h := fromProxies(prefixes(t, "10.0.0.0/8"), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got = r }))
			req := httptest.NewRequest("GET", "/", nil)
			req.RemoteAddr = tt.peer
			req.Header.Set("X-Forwarded-For", "198.51.100.1")
			req.Header.Set("X-Forwarded-Proto", "https")
			h.ServeHTTP(httptest.NewRecorder(), req)
			if got.RemoteAddr != tt.addr {
				t.Errorf("RemoteAddr %q, want %q", got.RemoteAddr, tt.addr)
			}
			if seen := got.Header.Get("X-Forwarded-Proto") != ""; seen != tt.forwarded {
				t.Errorf("X-Forwarded-Proto seen %v, want %v", seen, tt.forwarded)
			}
			if req.Header.Get("X-Forwarded-Proto") == "" {
				t.Error("the caller's request was changed")
			}
		})
	}
}
