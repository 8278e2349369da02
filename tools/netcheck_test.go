package tools

import (
	"errors"
	"net/netip"
	"strings"
	"testing"
)

func TestBlockedReason(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		ip   string
		want string // "" for public
	}{
		"public v4":              {"8.8.8.8", ""},
		"public v6":              {"2606:4700:4700::1111", ""},
		"public NAT64":           {"64:ff9b::808:808", ""},
		"public 6to4":            {"2002:808:808::1", ""},
		"just outside CGNAT":     {"100.128.0.1", ""},
		"just outside 172.16/12": {"172.32.0.1", ""},
		"loopback":               {"127.0.0.1", "loopback"},
		"loopback range":         {"127.255.255.254", "loopback"},
		"IPv6 loopback":          {"::1", "loopback"},
		"mapped loopback":        {"::ffff:127.0.0.1", "loopback"},
		"10/8":                   {"10.0.0.1", "private"},
		"172.16/12":              {"172.16.5.4", "private"},
		"192.168/16":             {"192.168.0.1", "private"},
		"fc00::/7":               {"fd12:3456::1", "private"},
		"metadata":               {"169.254.169.254", "link-local"},
		"fe80::/10":              {"fe80::1", "link-local"},
		"zoned link-local":       {"fe80::1%eth0", "link-local"},
		"unspecified":            {"0.0.0.0", "unspecified"},
		"IPv6 unspecified":       {"::", "unspecified"},
		"this network":           {"0.1.2.3", "this network"},
		"multicast":              {"239.1.2.3", "multicast"},
		"IPv6 multicast":         {"ff02::1", "multicast"},
		"CGNAT":                  {"100.64.0.1", "carrier-grade NAT"},
		"CGNAT top":              {"100.127.255.254", "carrier-grade NAT"},
		"broadcast":              {"255.255.255.255", "reserved or broadcast"},
		"benchmarking":           {"198.18.0.1", "benchmarking"},
		"IETF":                   {"192.0.0.170", "IETF"},
		"IPv4-compatible":        {"::a00:1", "IPv4-compatible"},
		"site-local":             {"fec0::1", "site-local"},
		"NAT64 private":          {"64:ff9b::a00:1", "embedding 10.0.0.1"},
		"6to4 metadata":          {"2002:a9fe:a9fe::1", "embedding 169.254.169.254"},
		"local NAT64":            {"64:ff9b:1::1", "local-use NAT64"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := blockedReason(netip.MustParseAddr(tt.ip))
			if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
				t.Fatalf("blockedReason(%s) = %q, want %q", tt.ip, got, tt.want)
			}
		})
	}
}

// TestGuardControl checks the dial-time hook on its own: it is the check
// that holds whatever the URL check or the resolver let through.
func TestGuardControl(t *testing.T) {
	t.Parallel()
	g := guard{allow: []netip.AddrPort{netip.MustParseAddrPort("127.0.0.1:8080")}}
	tests := map[string]struct {
		network, address string
		wantBlocked      bool
		wantErr          bool
	}{
		"public":               {"tcp4", "93.184.215.14:443", false, false},
		"public v6":            {"tcp6", "[2606:4700::6810:84e5]:443", false, false},
		"allowed test server":  {"tcp4", "127.0.0.1:8080", false, false},
		"loopback, other port": {"tcp4", "127.0.0.1:8081", true, true},
		"IPv6 loopback":        {"tcp6", "[::1]:8080", true, true},
		"private":              {"tcp4", "10.0.0.1:80", true, true},
		"metadata":             {"tcp4", "169.254.169.254:80", true, true},
		"link-local with zone": {"tcp6", "[fe80::1%eth0]:80", true, true},
		"CGNAT":                {"tcp4", "100.64.0.1:80", true, true},
		"mapped private":       {"tcp6", "[::ffff:10.0.0.1]:80", true, true},
		"udp":                  {"udp4", "8.8.8.8:53", false, true},
		"not an address":       {"tcp", "example.com:80", false, true},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			err := g.control(tt.network, tt.address, nil)
			var be *BlockedError
			if (err != nil) != tt.wantErr || errors.As(err, &be) != tt.wantBlocked {
				t.Fatalf("control(%s, %s) = %v; want error %v, blocked %v", tt.network, tt.address, err, tt.wantErr, tt.wantBlocked)
			}
		})
	}
}

// FuzzBlockedReason checks that no spelling of an internal address passes:
// an address passes only if its IPv4 form (when it has one) passes too, and
// never when netip itself calls it loopback, private or link-local.
func FuzzBlockedReason(f *testing.F) {
	for _, s := range []string{"127.0.0.1", "::ffff:10.0.0.1", "64:ff9b::7f00:1", "2002:7f00:1::", "fe80::1%lo", "8.8.8.8"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ip, err := netip.ParseAddr(s)
		if err != nil || blockedReason(ip) != "" {
			return
		}
		u := ip.Unmap()
		if u.IsLoopback() || u.IsPrivate() || u.IsLinkLocalUnicast() || u.IsUnspecified() || u.IsMulticast() {
			t.Fatalf("blockedReason(%s) passed an internal address", s)
		}
	})
}
