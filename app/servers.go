package main

import (
	"net"
	"net/http"
	"net/netip"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/httpguard"
	"github.com/dragoman-translate/dragoman/adapters/problem"
)

// headerTimeout bounds a request's headers (and the TLS handshake before
// them); its body is bounded by httpguard.Bodies.
const headerTimeout = 15 * time.Second

// bodyLimits bound every request body, API and dashboard alike.
func (c *Config) bodyLimits() httpguard.BodyLimits {
	return httpguard.BodyLimits{Idle: c.UploadIdleTimeout, Whole: c.UploadTimeout, MinRate: c.BodyMinRate}
}

// listen opens addr with at most --max-conns-per-ip connections open per
// client address; a trusted proxy, which carries many clients, is not
// counted.
func (c *Config) listen(addr string) (net.Listener, error) {
	ln, err := listen(addr)
	if err != nil || c.MaxConnsPerIP <= 0 {
		return ln, err
	}
	return httpguard.PerAddress(ln, c.MaxConnsPerIP, func(a netip.Addr) bool { return trusted(c.TrustedProxies, a) }), nil
}

// perAddress bounds the requests one client address has in progress at
// once by --max-conns-per-ip too: over HTTP/2 one connection carries many.
func (c *Config) perAddress(h http.Handler) http.Handler {
	if c.MaxConnsPerIP <= 0 {
		return h
	}
	return httpguard.InFlight(h, c.MaxConnsPerIP, func(a netip.Addr) bool { return trusted(c.TrustedProxies, a) }, refuse)
}

// refuse answers a request the guard refused with the API's problem body.
func refuse(w http.ResponseWriter, r *http.Request, status int, reason string) {
	problem.Write(w, r, problem.New(status, reason))
}
