package netguard

import (
	"net/netip"
	"testing"
)

func TestLocalAddr(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1":        true,
		"127.8.9.10":       true,
		"::1":              true,
		"::ffff:127.0.0.1": true,
		"169.254.169.254":  true,
		"fe80::1":          true,
		"0.0.0.0":          true,
		"0.1.2.3":          true,
		"::":               true,
		"10.0.0.5":         false, // the school's own network is where student affairs lives
		"192.168.1.20":     false,
		"172.16.0.1":       false,
		"203.0.113.7":      false,
		"2001:db8::1":      false,
	} {
		if got := LocalAddr(netip.MustParseAddr(addr)); got != want {
			t.Errorf("LocalAddr(%s) = %v, want %v", addr, got, want)
		}
	}
	for host, want := range map[string]bool{"localhost": true, "LOCALHOST.": true, "app.localhost": true, "[::1]": true,
		"127.0.0.1": true, "kesiswaan.sch.id": false, "192.168.1.20": false} {
		if got := LocalHost(host); got != want {
			t.Errorf("LocalHost(%s) = %v, want %v", host, got, want)
		}
	}
}
