package throttle

import "net/netip"

// ClientKey is the part of a client's address that every per-client
// bound of the site counts (rate limits, streams, connections, engine
// games, analysis, logins, signups): the IPv4 address, or the /64
// network of an IPv6 one, which one subscriber usually has whole, so that
// a client cannot multiply its share by changing the low bits of its
// address. Text that is no address is its own key.
func ClientKey(addr string) string {
	a, err := netip.ParseAddr(addr)
	if err != nil {
		return addr
	}
	a = a.Unmap()
	if a.Is6() {
		if p, err := a.Prefix(64); err == nil {
			return p.String()
		}
	}
	return a.String()
}

// NetworkKey is the wider network of a client's address: the IPv4 /24,
// or the IPv6 /48 that a site or a provider usually hands out whole. A
// loose bound on it stops a flood spread over the neighbouring addresses
// that each ClientKey counts apart. Text that is no address is its own
// key.
func NetworkKey(addr string) string {
	a, err := netip.ParseAddr(addr)
	if err != nil {
		return addr
	}
	a = a.Unmap().WithZone("")
	bits := 24
	if a.Is6() {
		bits = 48
	}
	p, err := a.Prefix(bits)
	if err != nil {
		return addr
	}
	return p.String()
}
