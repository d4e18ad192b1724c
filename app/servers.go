package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"time"

	"go.uber.org/fx"

	"github.com/dragoman-translate/dragoman/adapters/dashboard"
	"github.com/dragoman-translate/dragoman/adapters/httpapi"
	"github.com/dragoman-translate/dragoman/adapters/httpguard"
	"github.com/dragoman-translate/dragoman/adapters/problem"
	"github.com/dragoman-translate/dragoman/adapters/telemetry"
)

// runServers listens on HTTPS for the API and on HTTP for redirects; a
// worker serves only the probes, on HTTPS.
func runServers(lc fx.Lifecycle, c *Config, api *httpapi.API, dash *dashboard.Dashboard, log *slog.Logger, m *telemetry.Metrics, t *telemetry.Tracing, access accessLog) error {
	cert, err := loadCertificate(c)
	if err != nil {
		return fmt.Errorf("TLS certificate: %w", err)
	}
	handler := httpguard.Bodies(site(api.Handler(), dash), c.bodyLimits(), refuse)
	if !c.servesAPI() {
		handler = probesOnly(handler)
	}
	handler = observed(handler, c, m, t, access)
	https := &http.Server{
		Handler:           handler,
		TLSConfig:         &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12},
		ReadHeaderTimeout: headerTimeout,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelDebug),
	}
	servers := []*http.Server{https}
	var plain *http.Server
	if c.HTTPAddr != "" && c.servesAPI() {
		plain = &http.Server{Handler: redirectToHTTPS(c, handler), ReadHeaderTimeout: headerTimeout, IdleTimeout: 2 * time.Minute}
		servers = append(servers, plain)
	}
	lc.Append(fx.Hook{
		OnStart: func(context.Context) error {
			ln, err := c.listen(c.HTTPSAddr)
			if err != nil {
				return portTaken(err, "HTTPS", "https-addr", c.HTTPSAddr)
			}
			go func() { _ = https.ServeTLS(ln, "", "") }()
			// The start-up banner names the bound addresses, so that port
			// 0 (any free port) serves scripts and tests that start a server.
			c.HTTPSAddr = ln.Addr().String()
			if plain != nil {
				pl, err := c.listen(c.HTTPAddr)
				if err != nil {
					ln.Close()
					return portTaken(err, "HTTP", "http-addr", c.HTTPAddr)
				}
				go func() { _ = plain.Serve(pl) }()
				c.HTTPAddr = pl.Addr().String()
			}
			return nil
		},
		OnStop: func(ctx context.Context) error {
			var errs []error
			for _, s := range servers {
				errs = append(errs, s.Shutdown(ctx))
			}
			return errors.Join(errs...)
		},
	})
	return nil
}

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

// refuse answers a request the guard refused with the API's problem body.
func refuse(w http.ResponseWriter, r *http.Request, status int, reason string) {
	problem.Write(w, r, problem.New(status, reason))
}
