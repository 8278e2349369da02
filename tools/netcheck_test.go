package tools

import (
	"errors"
	"fmt"
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
		"TEST-NET-1":             {"192.0.2.10", "documentation"},
		"TEST-NET-2":             {"198.51.100.7", "documentation"},
		"TEST-NET-3":             {"203.0.113.255", "documentation"},
		"mapped TEST-NET-3":      {"::ffff:203.0.113.1", "documentation"},
		"just outside TEST-NET":  {"203.0.114.1", ""},
		"just outside TEST-NET2": {"198.51.101.1", ""},
		"6to4 relay":             {"192.88.99.1", "6to4 relay"},
		"IPv6 documentation":     {"2001:db8::1", "documentation"},
		"IPv6 documentation end": {"2001:db8:ffff:ffff::1", "documentation"},
		"new IPv6 documentation": {"3fff:fff::1", "documentation"},
		"past 3fff::/20":         {"3fff:1000::1", ""},
		"just outside 2001:db8":  {"2001:db9::1", ""},
		"Teredo":                 {"2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo"},
		"IPv6 benchmarking":      {"2001:2::1", "IETF protocol"},
		"ORCHIDv2":               {"2001:20::1", "IETF protocol"},
		"first public 2001":      {"2001:200::1", ""},
		"discard-only":           {"100::1", "discard-only"},
		"dummy prefix":           {"100:0:0:1::1", "dummy"},
		"SRv6":                   {"5f00::1", "segment-routing"},
		"IPv4-translated":        {"::ffff:0:a00:1", "IPv4-translated"},
		"NAT64 documentation":    {"64:ff9b::c000:201", "embedding 192.0.2.1"},
		"6to4 benchmarking":      {"2002:c612:1::1", "embedding 198.18.0.1"},
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
	g := guard{allow: []netip.AddrPort{netip.MustParseAddrPort("127.0.0.1:8080")},
		local: []netip.Addr{netip.MustParseAddr("203.0.114.7"), netip.MustParseAddr("2606:4700::7")}}
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
		"this machine":         {"tcp4", "203.0.114.7:443", true, true},
		"this machine, mapped": {"tcp6", "[::ffff:203.0.114.7]:443", true, true},
		"this machine, v6":     {"tcp6", "[2606:4700::7]:443", true, true},
		"documentation":        {"tcp4", "192.0.2.1:443", true, true},
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

// On a self-hosted runner with a public address, that address is still the
// runner: fetch_url refuses it as written, through a name, and when dialled.
func TestWebRefusesThisMachinesAddresses(t *testing.T) {
	t.Parallel()
	local := []netip.Addr{netip.MustParseAddr("203.0.114.7"), netip.MustParseAddr("2606:4700::7")}
	read := 0
	w := Web(WebOptions{
		Resolver: fakeResolver{"runner.test": addrs("203.0.114.7"), "v6.runner.test": addrs("2606:4700::7")},
		local:    func() []netip.Addr { read++; return local },
	})
	tests := map[string]struct{ url, wantErr string }{
		"literal":          {"http://203.0.114.7/", "203.0.114.7 is an address of this machine"},
		"literal v6":       {"http://[2606:4700::7]:8080/", "2606:4700::7 is an address of this machine"},
		"mapped literal":   {"http://[::ffff:203.0.114.7]/", "an address of this machine"},
		"name":             {"http://runner.test/", "runner.test resolves to 203.0.114.7, an address of this machine"},
		"name, v6":         {"http://v6.runner.test/", "v6.runner.test resolves to 2606:4700::7, an address of this machine"},
		"documentation":    {"http://198.51.100.1/", "a documentation address"},
		"v6 documentation": {"http://[2001:db8::1]/", "a documentation IPv6 address"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := call(t, w, fmt.Sprintf(`{"url": %q}`, tt.url))
			var be *BlockedError
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.As(err, &be) {
				t.Fatalf("fetch %s: %v, want a refusal containing %q", tt.url, err, tt.wantErr)
			}
		})
	}
	if read != 1 {
		t.Errorf("the interface addresses were read %d times, want once", read)
	}
}

// By default the guard knows the machine's real interface addresses.
func TestInterfaceAddrsAreRefused(t *testing.T) {
	t.Parallel()
	o := WebOptions{}.withDefaults()
	g := newFetcher(o).guard
	if len(g.local) != len(interfaceAddrs()) {
		t.Fatalf("the guard holds %d local addresses, the machine has %d", len(g.local), len(interfaceAddrs()))
	}
	for _, a := range g.local {
		if g.reason(a) == "" {
			t.Errorf("%s, an address of this machine, is allowed", a)
		}
	}
}
