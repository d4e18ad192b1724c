package client

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
)

// ErrBadSignature is a webhook body whose signature does not match.
var ErrBadSignature = errors.New("dragoman: webhook signature does not match")

// VerifySignature checks a webhook delivery: header is the value of
// X-Webhook-Signature ("sha256=<hex HMAC-SHA256 of the raw body>") and
// secret the one returned when the webhook was registered.
func VerifySignature(secret string, body []byte, header string) error {
	got, ok := strings.CutPrefix(strings.TrimSpace(header), "sha256=")
	if !ok {
		return ErrBadSignature
	}
	sum, err := hex.DecodeString(got)
	if err != nil {
		return ErrBadSignature
	}
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	if !hmac.Equal(sum, m.Sum(nil)) {
		return ErrBadSignature
	}
	return nil
}

// Sign is the X-Webhook-Signature value of body under secret.
func Sign(secret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}
