package fetch

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"testing"
)

// fuzzAllowed is the one AllowHosts entry of FuzzGetRefusesNonPublic's fetcher.
const fuzzAllowed = "allowed.test:8080"

// FuzzGetRefusesNonPublic follows a URL down Get's path — the URL checks, the request, the
// client's transport (which turns the host into the address it dials, IDNA included) — to
// the dialer, with a resolver that answers every name with the fuzzed address. The dialer is
// given a cancelled context, so nothing is ever connected to. Whenever an address it would
// connect to is loopback, private, link-local, unspecified, multicast, broadcast or a cloud
// metadata address (also inside an IPv4-mapped, NAT64 or 6to4 address), as net.IP classifies
// it, the fetch must be refused as Blocked — unless host and port are exactly the allowed
// entry's.
func FuzzGetRefusesNonPublic(f *testing.F) {
	v4 := func(a, b, c, d byte) []byte { return []byte{a, b, c, d} }
	v6 := func(s string) []byte { return netip.MustParseAddr(s).AsSlice() }
	for _, seed := range []struct {
		url    string
		answer []byte
	}{
		{"http://127.0.0.1/", nil},
		{"http://127.0.0.1:8080/", nil},
		{"https://[::1]/", nil},
		{"http://[::ffff:127.0.0.1]/", nil},
		{"http://[::ffff:7f00:1]:8080/", nil},
		{"http://[fe80::1%25eth0]/", nil},
		{"http://169.254.169.254/latest/meta-data/", nil},
		{"http://[fd00:ec2::254]/", nil},
		{"http://168.63.129.16/", nil},
		{"http://[64:ff9b::a9fe:a9fe]/", nil},
		{"http://[2002:a9fe:a9fe::1]/", nil},
		{"http://0.0.0.0/", nil},
		{"http://[::]/", nil},
		{"http://255.255.255.255/", nil},
		{"http://１２７.０.０.１/", nil},
		{"http://0x7f.1/", nil},
		{"http://2130706433/", nil},
		{"http://127.1/", nil},
		{"http://localhost/", v4(127, 0, 0, 1)},
		{"http://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ/", v4(127, 0, 0, 1)},
		{"http://evil.example/", v4(10, 0, 0, 1)},
		{"https://evil.example/", v6("::ffff:192.168.1.1")},
		{"http://evil.example/", v6("fe80::1")},
		{"http://evil.example/", v6("ff02::1")},
		{"http://allowed.test:8080/", v4(127, 0, 0, 1)},
		{"http://ALLOWED.test.:8080/", v4(127, 0, 0, 1)},
		{"http://allowed.test/", v4(127, 0, 0, 1)},
		{"https://example.com/", v4(93, 184, 215, 14)},
		{"https://example.com/", []byte{1, 2, 3}},
	} {
		f.Add(seed.url, seed.answer)
	}
	f.Fuzz(func(t *testing.T, rawURL string, answer []byte) {
		resolved, ok := netip.AddrFromSlice(answer)
		fetcher := &Fetcher{AllowHosts: []string{fuzzAllowed}, Resolver: oneAnswer{resolved, ok}}

		// Get's steps up to the client.
		u, err := url.Parse(rawURL)
		if err != nil || checkURL(u) != nil {
			return
		}
		req, err := http.NewRequest(http.MethodGet, u.String(), nil)
		if err != nil {
			return
		}
		cancelled, cancel := context.WithCancel(context.Background())
		cancel()
		type dialled struct {
			addr string
			err  error
		}
		var dials []dialled
		client := fetcher.client()
		client.Transport.(*http.Transport).DialContext = func(_ context.Context, network, addr string) (net.Conn, error) {
			conn, err := fetcher.dial(cancelled, network, addr)
			if conn != nil {
				conn.Close()
				t.Fatalf("dialled %s for %q with a cancelled context", addr, rawURL)
			}
			dials = append(dials, dialled{addr, err})
			return nil, err
		}
		if resp, err := client.Do(req); err == nil {
			resp.Body.Close()
			t.Fatalf("%q fetched without a connection", rawURL)
		}

		for _, d := range dials {
			host, port, err := net.SplitHostPort(d.addr)
			if err != nil {
				continue // refused before any address is looked at
			}
			addrs := []netip.Addr{resolved}
			if literal, err := netip.ParseAddr(host); err == nil {
				addrs = []netip.Addr{literal}
			} else if !ok {
				continue // the name does not resolve
			}
			if net.JoinHostPort(canonicalHost(host), port) == fuzzAllowed {
				continue
			}
			for _, a := range addrs {
				if notPublic(a) && KindOf(d.err) != Blocked {
					t.Fatalf("%q dials %s, the address %s, and is not refused as blocked: %v", rawURL, d.addr, a, d.err)
				}
			}
		}
	})
}

// oneAnswer is a resolver that answers every name with one address, or not found.
type oneAnswer struct {
	addr netip.Addr
	ok   bool
}

func (r oneAnswer) LookupIPAddr(_ context.Context, host string) ([]net.IPAddr, error) {
	if !r.ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	return []net.IPAddr{{IP: r.addr.AsSlice()}}, nil
}

// metadataIPs are the cloud metadata addresses, for notPublic.
var metadataIPs = []net.IP{
	net.ParseIP("169.254.169.254"), net.ParseIP("fd00:ec2::254"), net.ParseIP("100.100.100.200"), net.ParseIP("168.63.129.16"),
}

// notPublic is the rule FuzzGetRefusesNonPublic holds the fetcher to, written with net.IP's
// classification rather than the package's prefix table.
func notPublic(a netip.Addr) bool {
	ip := net.IP(a.WithZone("").AsSlice())
	if v4 := ip.To4(); v4 != nil {
		ip = v4
	}
	for _, m := range metadataIPs {
		if ip.Equal(m) {
			return true
		}
	}
	if ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified() || ip.Equal(net.IPv4bcast) {
		return true
	}
	if len(ip) == net.IPv6len {
		nat64 := &net.IPNet{IP: net.ParseIP("64:ff9b::"), Mask: net.CIDRMask(96, 128)}
		sixToFour := &net.IPNet{IP: net.ParseIP("2002::"), Mask: net.CIDRMask(16, 128)}
		switch {
		case nat64.Contains(ip):
			return notPublic(netip.AddrFrom4([4]byte(ip[12:16])))
		case sixToFour.Contains(ip):
			return notPublic(netip.AddrFrom4([4]byte(ip[2:6])))
		}
	}
	return false
}
