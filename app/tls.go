package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// loadCertificate returns the configured certificate, or a self-signed
// one kept in the data dir (made on first start) so clients can pin it.
func loadCertificate(c *Config) (tls.Certificate, error) {
	if c.TLSCert != "" {
		return tls.LoadX509KeyPair(c.TLSCert, c.TLSKey)
	}
	certPath := filepath.Join(c.DataDir, "tls", "cert.pem")
	keyPath := filepath.Join(c.DataDir, "tls", "key.pem")
	if cert, err := tls.LoadX509KeyPair(certPath, keyPath); err == nil {
		return cert, nil
	}
	if err := os.MkdirAll(filepath.Dir(certPath), 0o700); err != nil {
		return tls.Certificate{}, err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	serial, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 120))
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: "Dragoman (self-signed)"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().AddDate(5, 0, 0),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames:     []string{"localhost"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, err
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return tls.Certificate{}, err
	}
	if err := os.WriteFile(keyPath, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		return tls.Certificate{}, err
	}
	if err := os.WriteFile(certPath, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		return tls.Certificate{}, err
	}
	return tls.LoadX509KeyPair(certPath, keyPath)
}

// redirectToHTTPS answers every plain-HTTP request with a 308 to the same
// path and query on HTTPS. Requests from a trusted proxy that already
// terminated TLS (X-Forwarded-Proto: https) are served instead.
func redirectToHTTPS(c *Config, api http.Handler) http.Handler {
	httpsPort := portOf(c.HTTPSAddr)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if fromTrustedProxy(c.TrustedProxies, r) && strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https") {
			api.ServeHTTP(w, r)
			return
		}
		host := r.Host
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		if strings.Contains(host, ":") {
			host = "[" + host + "]"
		}
		target := "https://" + host + httpsPort + r.URL.RequestURI()
		http.Redirect(w, r, target, http.StatusPermanentRedirect)
	})
}

func fromTrustedProxy(proxies []netip.Prefix, r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	addr, err := netip.ParseAddr(host)
	return err == nil && trusted(proxies, addr)
}

// trusted says whether addr is one of the trusted proxies.
func trusted(proxies []netip.Prefix, addr netip.Addr) bool {
	for _, p := range proxies {
		if p.Contains(addr.Unmap()) {
			return true
		}
	}
	return false
}

func listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	return ln, nil
}
