package throttle

import "testing"

func TestClientKey(t *testing.T) {
	for _, c := range []struct{ addr, want string }{
		{"192.0.2.7", "192.0.2.7"},
		{"::ffff:192.0.2.7", "192.0.2.7"},
		{"2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"},
		{"2001:db8:1:2:ffff::1", "2001:db8:1:2::/64"},
		{"fe80::1%eth0", "fe80::/64"},
		{"not an address", "not an address"},
	} {
		if got := ClientKey(c.addr); got != c.want {
			t.Errorf("ClientKey(%q) = %q, want %q", c.addr, got, c.want)
		}
	}
}

func TestNetworkKey(t *testing.T) {
	for _, c := range []struct{ addr, want string }{
		{"192.0.2.7", "192.0.2.0/24"},
		{"192.0.2.250", "192.0.2.0/24"},
		{"::ffff:192.0.2.7", "192.0.2.0/24"},
		{"192.0.3.7", "192.0.3.0/24"},
		{"2001:db8:1:2:3:4:5:6", "2001:db8:1::/48"},
		{"2001:db8:1:ffff::1", "2001:db8:1::/48"},
		{"fe80::1%eth0", "fe80::/48"},
		{"not an address", "not an address"},
	} {
		if got := NetworkKey(c.addr); got != c.want {
			t.Errorf("NetworkKey(%q) = %q, want %q", c.addr, got, c.want)
		}
	}
}
