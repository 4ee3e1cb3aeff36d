package fetch

import (
	"net/netip"
	"testing"
)

func TestIsPublic(t *testing.T) {
	tests := []struct {
		addr string
		want bool
	}{
		{"93.184.215.14", true},
		{"8.8.8.8", true},
		{"1.1.1.1", true},
		{"2606:4700:4700::1111", true},
		{"2a00:1450:4001:80b::200e", true},
		{"::ffff:8.8.8.8", true},
		{"64:ff9b::808:808", true}, // NAT64 of 8.8.8.8
		{"2002:808:808::1", true},  // 6to4 of 8.8.8.8

		{"127.0.0.1", false},
		{"127.255.255.254", false},
		{"10.0.0.1", false},
		{"172.16.0.1", false},
		{"172.31.255.255", false},
		{"192.168.1.1", false},
		{"169.254.169.254", false},
		{"169.254.1.1", false},
		{"100.64.0.1", false},
		{"100.100.100.200", false},
		{"100.127.255.255", false},
		{"168.63.129.16", false},
		{"0.0.0.0", false},
		{"0.1.2.3", false},
		{"255.255.255.255", false},
		{"224.0.0.251", false},
		{"240.0.0.1", false},
		{"192.0.0.192", false},
		{"198.18.0.1", false},
		{"::", false},
		{"::1", false},
		{"::127.0.0.1", false},
		{"::ffff:127.0.0.1", false},
		{"::ffff:10.0.0.1", false},
		{"::ffff:169.254.169.254", false},
		{"::ffff:100.100.100.200", false},
		{"fc00::1", false},
		{"fd00:ec2::254", false},
		{"fe80::1", false},
		{"fe80::1%eth0", false},
		{"fec0::1", false},
		{"ff02::1", false},
		{"64:ff9b::7f00:1", false},    // NAT64 of 127.0.0.1
		{"64:ff9b::a9fe:a9fe", false}, // NAT64 of 169.254.169.254
		{"2002:a00:1::1", false},      // 6to4 of 10.0.0.1
		{"2001:db8::1", false},
		{"2001::1", false},
	}
	for _, tt := range tests {
		if got := isPublic(netip.MustParseAddr(tt.addr)); got != tt.want {
			t.Errorf("isPublic(%s) = %v, want %v", tt.addr, got, tt.want)
		}
	}
}

func TestAmbiguousNumericHost(t *testing.T) {
	tests := []struct {
		host string
		want bool
	}{
		{"2130706433", true},
		{"0x7f.1", true},
		{"0x7F000001", true},
		{"0177.0.0.1", true},
		{"127.1", true},
		{"127.0.0.1.", true},
		{"1.2.3.0x4", true},
		{"127.0.0.1", false}, // a standard address: checked as one
		{"::1", false},
		{"example.com", false},
		{"1password.com", false},
		{"123.example", false},
		{"0x.example", false},
		{"localhost", false},
	}
	for _, tt := range tests {
		if got := ambiguousNumericHost(tt.host); got != tt.want {
			t.Errorf("ambiguousNumericHost(%q) = %v, want %v", tt.host, got, tt.want)
		}
	}
}
