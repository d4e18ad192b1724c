// Package signature signs and verifies Dragoman webhook deliveries. The
// header X-Webhook-Signature is "sha256=" followed by the lowercase hex
// HMAC-SHA256 of the raw request body, keyed with the webhook secret (the
// 64-character string returned at registration, used as is, not decoded).
//
// Receivers import this package and call Verify on the body exactly as it
// arrived, before parsing it.
package signature

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
)

// Header is the request header that carries the signature.
const Header = "X-Webhook-Signature"

// Prefix starts every signature value.
const Prefix = "sha256="

// Errors of Verify; receivers answer 401 to all of them.
var (
	ErrMissing   = errors.New("webhook signature missing")
	ErrMalformed = errors.New("webhook signature malformed: want sha256=<64 hex characters>")
	ErrMismatch  = errors.New("webhook signature does not match the body")
)

// Sign returns the header value for body: "sha256=<hex>".
func Sign(secret string, body []byte) string {
	return Prefix + hex.EncodeToString(mac(secret, body))
}

// Verify checks header against body in constant time. It returns nil only
// when header is the signature of body under secret.
func Verify(secret string, body []byte, header string) error {
	if header == "" {
		return ErrMissing
	}
	if !strings.HasPrefix(header, Prefix) || len(header) != len(Prefix)+2*sha256.Size {
		return ErrMalformed
	}
	// The whole header is compared, so only the exact lowercase form
	// passes, as in the Python and Node examples.
	if !hmac.Equal([]byte(header), []byte(Sign(secret, body))) {
		return ErrMismatch
	}
	return nil
}

func mac(secret string, body []byte) []byte {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return m.Sum(nil)
}
