// Package netguard keeps the addresses a school types into Settings (the
// student-affairs system, the WhatsApp gateway) from reaching the server's
// own ports: loopback, link-local and unspecified addresses are refused on
// their face and again at dial time, after name resolution and for every
// redirect, unless TATIB_ALLOW_LOCAL_SOURCES allows them (the simulators
// on 127.0.0.1 in development and the demo, or a gateway self-hosted on
// the same machine).
package netguard

import (
	"errors"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"syscall"
	"time"

	"github.com/tatib/tatib/server/internal/config"
)

// LocalAllowed reports whether TATIB_ALLOW_LOCAL_SOURCES lets outgoing
// connections reach local addresses. Production leaves it unset: a
// settings screen must not become a way to probe the server's own ports.
func LocalAllowed() bool {
	switch strings.ToLower(strings.TrimSpace(config.Env("TATIB_ALLOW_LOCAL_SOURCES"))) {
	case "1", "true", "yes":
		return true
	}
	return false
}

// ErrLocalTarget is the dialer's error for a refused address.
var ErrLocalTarget = errors.New("netguard: refusing a loopback, link-local or unspecified address")

// LocalAddr reports whether ip is loopback (127/8, ::1), link-local
// (169.254/16, fe80::/10, and their multicast), unspecified (0.0.0.0, ::)
// or in 0.0.0.0/8, which Linux also delivers to the host itself.
func LocalAddr(ip netip.Addr) bool {
	ip = ip.Unmap()
	return ip.IsLoopback() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() || ip.IsUnspecified() ||
		(ip.Is4() && ip.As4()[0] == 0)
}

// LocalHost reports whether a URL's host is a local name or address on its
// face (checked before connecting, so a proxy cannot carry the request
// there either).
func LocalHost(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	if ip, err := netip.ParseAddr(strings.Trim(h, "[]")); err == nil {
		return LocalAddr(ip.WithZone(""))
	}
	return false
}

// RefuseLocal is a net.Dialer Control that refuses local addresses: it
// sees the address actually dialled, so neither a name resolving to
// 127.0.0.1 nor a redirect to it gets through.
func RefuseLocal(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return ErrLocalTarget
	}
	ip, err := netip.ParseAddr(host)
	if err != nil || LocalAddr(ip.WithZone("")) {
		return ErrLocalTarget
	}
	return nil
}

// Client is an HTTP client bounded by timeout whose dialer refuses local
// addresses unless allowLocal.
func Client(timeout time.Duration, allowLocal bool) *http.Client {
	d := &net.Dialer{Timeout: min(10*time.Second, timeout), KeepAlive: 30 * time.Second}
	if !allowLocal {
		d.Control = RefuseLocal
	}
	tr := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           d.DialContext,
		TLSHandshakeTimeout:   min(10*time.Second, timeout),
		ResponseHeaderTimeout: timeout,
		MaxIdleConnsPerHost:   4,
	}
	return &http.Client{Timeout: timeout, Transport: tr}
}
