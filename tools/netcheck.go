package tools

import (
	"fmt"
	"net"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"syscall"
)

// blockedPrefixes are the ranges, besides those netip classifies itself
// (loopback, RFC 1918 and fc00::/7 private, link-local, multicast,
// unspecified), that fetch_url never connects to: none of them is the public
// internet, and several reach the runner's own network.
var blockedPrefixes = []struct {
	prefix netip.Prefix
	what   string
}{
	// IANA's IPv4 and IPv6 special-purpose address registries: every
	// block that is not globally reachable and that netip does not classify.
	{netip.MustParsePrefix("0.0.0.0/8"), "a \"this network\" address"},
	{netip.MustParsePrefix("100.64.0.0/10"), "a carrier-grade NAT (shared) address"},
	{netip.MustParsePrefix("192.0.0.0/24"), "an IETF protocol address"},
	{netip.MustParsePrefix("192.0.2.0/24"), "a documentation address (TEST-NET-1)"},
	{netip.MustParsePrefix("192.88.99.0/24"), "a deprecated 6to4 relay address"},
	{netip.MustParsePrefix("198.18.0.0/15"), "a benchmarking-network address"},
	{netip.MustParsePrefix("198.51.100.0/24"), "a documentation address (TEST-NET-2)"},
	{netip.MustParsePrefix("203.0.113.0/24"), "a documentation address (TEST-NET-3)"},
	{netip.MustParsePrefix("240.0.0.0/4"), "a reserved or broadcast address"},
	{netip.MustParsePrefix("::/96"), "an IPv4-compatible IPv6 address"},
	{netip.MustParsePrefix("::ffff:0:0:0/96"), "an IPv4-translated IPv6 address"},
	{netip.MustParsePrefix("64:ff9b:1::/48"), "a local-use NAT64 address"},
	{netip.MustParsePrefix("100::/64"), "a discard-only IPv6 address"},
	{netip.MustParsePrefix("100:0:0:1::/64"), "a dummy IPv6 address"},
	{netip.MustParsePrefix("2001::/23"), "an IETF protocol IPv6 address (Teredo, benchmarking, ORCHID)"},
	{netip.MustParsePrefix("2001:db8::/32"), "a documentation IPv6 address"},
	{netip.MustParsePrefix("3fff::/20"), "a documentation IPv6 address"},
	{netip.MustParsePrefix("5f00::/16"), "a segment-routing (SRv6) IPv6 address"},
	{netip.MustParsePrefix("fec0::/10"), "a site-local IPv6 address"},
}

// Prefixes whose IPv6 addresses carry an IPv4 address that is checked in
// turn: 64:ff9b::/96 (NAT64) in the last 4 bytes, 2002::/16 (6to4) in bytes
// 2-5. Without this, [64:ff9b::a9fe:a9fe] would reach 169.254.169.254
// through a NAT64 gateway.
var (
	nat64  = netip.MustParsePrefix("64:ff9b::/96")
	sixTo4 = netip.MustParsePrefix("2002::/16")
)

// blockedReason says why ip is not a public internet address ("a loopback
// address"), or returns "" for a public one.
func blockedReason(ip netip.Addr) string {
	ip = ip.WithZone("").Unmap()
	switch {
	case !ip.IsValid():
		return "not a valid address"
	case ip.IsUnspecified():
		return "an unspecified address"
	case ip.IsLoopback():
		return "a loopback address"
	case ip.IsPrivate():
		return "a private-network address"
	case ip.IsLinkLocalUnicast():
		return "a link-local address (where cloud metadata services live)"
	case ip.IsMulticast() || ip.IsLinkLocalMulticast() || ip.IsInterfaceLocalMulticast():
		return "a multicast address"
	}
	for _, b := range blockedPrefixes {
		if b.prefix.Contains(ip) {
			return b.what
		}
	}
	if ip.Is6() {
		a := ip.As16()
		var v4 [4]byte
		switch {
		case nat64.Contains(ip):
			copy(v4[:], a[12:16])
		case sixTo4.Contains(ip):
			copy(v4[:], a[2:6])
		default:
			return ""
		}
		if why := blockedReason(netip.AddrFrom4(v4)); why != "" {
			return "an IPv6 address embedding " + netip.AddrFrom4(v4).String() + ", " + why
		}
	}
	return ""
}

// BlockedError is the error for a destination fetch_url refuses to connect
// to.
type BlockedError struct {
	Host string     // the host name asked for, when it is not the address itself
	Addr netip.Addr // the address it resolved to
	Why  string     // what kind of address it is
}

func (e *BlockedError) Error() string {
	if e.Host != "" && e.Host != e.Addr.String() {
		return fmt.Sprintf("%s resolves to %s, %s; only public internet addresses can be fetched", e.Host, e.Addr, e.Why)
	}
	return fmt.Sprintf("%s is %s; only public internet addresses can be fetched", e.Addr, e.Why)
}

// interfaceAddrs are this machine's own addresses, read once: on a
// self-hosted runner one may be public, and whatever listens on it (a
// Docker daemon, an admin page) is the runner's, not the internet's.
var interfaceAddrs = sync.OnceValue(func() []netip.Addr {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return nil // the other checks still hold
	}
	var out []netip.Addr
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok {
			if ip, ok := netip.AddrFromSlice(n.IP); ok {
				out = append(out, ip.Unmap())
			}
		}
	}
	return out
})

// guard decides at dial time which addresses may be connected to.
type guard struct {
	// allow holds the exact address:port pairs of this package's test
	// servers; nothing outside the package can fill it.
	allow []netip.AddrPort
	// local are the machine's own addresses (interfaceAddrs).
	local []netip.Addr
}

// reason says why ip may not be connected to, or returns "".
func (g guard) reason(ip netip.Addr) string {
	if why := blockedReason(ip); why != "" {
		return why
	}
	if slices.Contains(g.local, ip.WithZone("").Unmap()) {
		return "an address of this machine"
	}
	return ""
}

// control is the net.Dialer Control hook: it runs on the socket about to
// connect, with the address actually dialled, after any name resolution.
// Checking there rather than before resolving is what stops DNS rebinding
// (a name answering a public address when checked and a private one when
// dialled) and redirects to internal names.
func (g guard) control(network, address string, _ syscall.RawConn) error {
	if !strings.HasPrefix(network, "tcp") {
		return fmt.Errorf("refused to open a %s connection: only TCP is used", network)
	}
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("refused to connect to %q: not an IP address and port", address)
	}
	if slices.Contains(g.allow, ap) {
		return nil
	}
	if why := g.reason(ap.Addr()); why != "" {
		return &BlockedError{Addr: ap.Addr().WithZone(""), Why: why}
	}
	return nil
}
