package fetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
)

// blockedPrefixes are the address ranges a fetch may never reach unless its host is allowed.
// IPv4-mapped IPv6 addresses are unmapped before the check, and IPv6 forms that embed an
// IPv4 address (NAT64, 6to4) are checked by that address.
var blockedPrefixes = prefixes(
	"0.0.0.0/8",       // "this network", includes the unspecified address
	"10.0.0.0/8",      // RFC 1918
	"100.64.0.0/10",   // carrier-grade NAT; includes Alibaba Cloud's metadata 100.100.100.200
	"127.0.0.0/8",     // loopback
	"169.254.0.0/16",  // link-local; includes the cloud metadata address 169.254.169.254
	"172.16.0.0/12",   // RFC 1918
	"192.0.0.0/24",    // IETF protocol assignments; includes Oracle Cloud's 192.0.0.192
	"192.0.2.0/24",    // documentation
	"192.168.0.0/16",  // RFC 1918
	"198.18.0.0/15",   // benchmarking
	"198.51.100.0/24", // documentation
	"203.0.113.0/24",  // documentation
	"224.0.0.0/4",     // multicast
	"240.0.0.0/4",     // reserved; includes broadcast 255.255.255.255
	"::/96",           // unspecified, loopback and the deprecated IPv4-compatible form
	"64:ff9b:1::/48",  // local-use NAT64
	"100::/64",        // discard
	"2001::/32",       // Teredo
	"2001:db8::/32",   // documentation
	"fc00::/7",        // unique local; includes AWS's metadata fd00:ec2::254
	"fe80::/10",       // link-local
	"fec0::/10",       // deprecated site-local
	"ff00::/8",        // multicast
)

// metadataAddrs are cloud metadata and platform endpoints. Most already fall in a blocked
// range; they are listed so that the rule does not depend on it. Azure's 168.63.129.16 looks
// public but answers only inside Azure.
var metadataAddrs = []netip.Addr{
	netip.MustParseAddr("169.254.169.254"),
	netip.MustParseAddr("fd00:ec2::254"),
	netip.MustParseAddr("100.100.100.200"),
	netip.MustParseAddr("168.63.129.16"),
}

var (
	nat64     = netip.MustParsePrefix("64:ff9b::/96") // embeds an IPv4 address in its last 4 bytes
	sixToFour = netip.MustParsePrefix("2002::/16")    // embeds an IPv4 address in bytes 2–5
)

func prefixes(ss ...string) []netip.Prefix {
	ps := make([]netip.Prefix, len(ss))
	for i, s := range ss {
		ps[i] = netip.MustParsePrefix(s)
	}
	return ps
}

// isPublic reports whether a is an address on the public internet that a fetch may reach.
func isPublic(a netip.Addr) bool {
	a = a.WithZone("").Unmap()
	if !a.IsValid() || !a.IsGlobalUnicast() || a.IsPrivate() {
		return false // also catches loopback, link-local, multicast, unspecified, broadcast
	}
	for _, m := range metadataAddrs {
		if a == m {
			return false
		}
	}
	for _, p := range blockedPrefixes {
		if p.Contains(a) {
			return false
		}
	}
	if nat64.Contains(a) {
		b := a.As16()
		return isPublic(netip.AddrFrom4([4]byte(b[12:16])))
	}
	if sixToFour.Contains(a) {
		b := a.As16()
		return isPublic(netip.AddrFrom4([4]byte(b[2:6])))
	}
	return true
}

// checkURL applies the URL rules: http or https, a host, no user info, no ambiguous
// numeric host. Addresses are checked when dialing.
func checkURL(u *url.URL) error {
	if u.Scheme != "http" && u.Scheme != "https" {
		return errorf(Unsupported, fmt.Errorf("scheme %q is not http or https", u.Scheme))
	}
	if u.User != nil {
		return errorf(Unsupported, errors.New("URLs with user info are not fetched"))
	}
	host := u.Hostname()
	if host == "" {
		return errorf(Unsupported, errors.New("URL has no host"))
	}
	if ambiguousNumericHost(host) {
		return errorf(Unsupported, fmt.Errorf("host %q is a numeric address in a non-standard form", host))
	}
	return nil
}

// ambiguousNumericHost reports whether host looks like an IPv4 address written in a form
// some resolvers accept and others do not: 2130706433, 0x7f.1, 0177.0.0.1, 127.1. No real
// domain has a numeric top-level label, so such a host is never a name worth resolving.
func ambiguousNumericHost(host string) bool {
	if _, err := netip.ParseAddr(host); err == nil {
		return false
	}
	labels := strings.Split(strings.TrimSuffix(host, "."), ".")
	last := labels[len(labels)-1]
	if rest, ok := strings.CutPrefix(strings.ToLower(last), "0x"); ok {
		return strings.Trim(rest, "0123456789abcdef") == ""
	}
	return last != "" && strings.Trim(last, "0123456789") == ""
}

// canonicalHost lower-cases a host name and writes an IP address in its standard form, so
// that AllowHosts entries compare with what the transport dials.
func canonicalHost(host string) string {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if a, err := netip.ParseAddr(host); err == nil {
		return a.String()
	}
	return host
}

// allowed reports whether host:port is in AllowHosts.
func (f *Fetcher) allowed(host, port string) bool {
	host = canonicalHost(host)
	for _, entry := range f.AllowHosts {
		h, p, err := net.SplitHostPort(strings.TrimSpace(entry))
		if err == nil && p == port && canonicalHost(h) == host {
			return true
		}
	}
	return false
}

// resolve returns the addresses of host, a name or an IP literal.
func (f *Fetcher) resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	if a, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{a}, nil
	}
	var r interface {
		LookupIPAddr(ctx context.Context, host string) ([]net.IPAddr, error)
	} = net.DefaultResolver
	if f.Resolver != nil {
		r = f.Resolver
	}
	ipas, err := r.LookupIPAddr(ctx, host)
	if err != nil {
		if dnsErr, ok := errors.AsType[*net.DNSError](err); ok && dnsErr.IsNotFound {
			return nil, errorf(NotFound, err)
		}
		return nil, errorf(Transient, err)
	}
	addrs := make([]netip.Addr, 0, len(ipas))
	for _, ipa := range ipas {
		a, ok := netip.AddrFromSlice(ipa.IP)
		if !ok {
			return nil, errorf(Transient, fmt.Errorf("resolver returned an invalid address for %s", host))
		}
		addrs = append(addrs, a.WithZone(ipa.Zone))
	}
	if len(addrs) == 0 {
		return nil, errorf(NotFound, fmt.Errorf("no addresses for %s", host))
	}
	return addrs, nil
}

// dial is the transport's only way to open a connection: it resolves the host once, checks
// every address, and dials the checked addresses themselves, so a DNS answer that changes
// between check and connect (rebinding) cannot reach a blocked address.
func (f *Fetcher) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, errorf(Unsupported, err)
	}
	addrs, err := f.resolve(ctx, host)
	if err != nil {
		return nil, err
	}
	if !f.allowed(host, port) {
		for _, a := range addrs {
			if !isPublic(a) {
				return nil, errorf(Blocked, fmt.Errorf("%s resolves to the non-public address %s", host, a))
			}
		}
	}
	var d net.Dialer
	var errs []error
	for _, a := range addrs {
		conn, err := d.DialContext(ctx, network, net.JoinHostPort(a.String(), port))
		if err == nil {
			return conn, nil
		}
		errs = append(errs, err)
	}
	return nil, errorf(Transient, errors.Join(errs...))
}
