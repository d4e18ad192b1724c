// Package account holds accounts and API keys. An account's plan and its
// limits are in package quota.
package account

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/dragoman-translate/dragoman/core/quota"
)

// Account is a customer. Keys and usage hang off it.
type Account struct {
	ID        string
	Name      string
	PlanName  string
	Suspended bool
	// Overrides of the plan's limits (enterprise deals); nil means the plan's.
	LimitWordsOverride *int64
	RPMOverride        *int
	// DoNotTranslate lists product names that professional mode protects.
	DoNotTranslate []string
	CreatedAt      time.Time
}

// Limits are the effective limits of an account: its plan's, with the
// overrides applied.
func (a *Account) Limits() quota.Plan {
	p, err := quota.LookupPlan(a.PlanName)
	if err != nil {
		p = quota.Plans["free"]
	}
	if a.LimitWordsOverride != nil {
		p.LimitWords = quota.Words(*a.LimitWordsOverride)
	}
	if a.RPMOverride != nil {
		p.RequestsPerMinute = *a.RPMOverride
	}
	return p
}

// KeyPrefix starts every API key, so leaked keys are recognisable by scanners.
const KeyPrefix = "dgm_"

// Key is an API key as stored: only its hash.
type Key struct {
	ID        string
	AccountID string
	Hash      string // hex SHA-256 of the whole key
	Hint      string // first characters, for listings
	CreatedAt time.Time
	RevokedAt *time.Time
}

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// NewKey makes a key of 43 base62 characters after the prefix (256 bits).
// The plain key is returned once; only Key (its hash) is kept.
func NewKey(id, accountID string, now time.Time) (plain string, k Key, err error) {
	var b strings.Builder
	b.WriteString(KeyPrefix)
	max := big.NewInt(int64(len(base62)))
	for i := 0; i < 43; i++ {
		n, err := rand.Int(rand.Reader, max)
		if err != nil {
			return "", Key{}, fmt.Errorf("generate key: %w", err)
		}
		b.WriteByte(base62[n.Int64()])
	}
	plain = b.String()
	return plain, Key{ID: id, AccountID: accountID, Hash: HashKey(plain), Hint: plain[:8], CreatedAt: now}, nil
}

// HashKey is the stored form of a key. A fast hash is enough: keys carry
// 256 random bits, so there is nothing to brute-force.
func HashKey(plain string) string {
	sum := sha256.Sum256([]byte(plain))
	return hex.EncodeToString(sum[:])
}

// WellFormed reports whether s could be a key, before any lookup.
func WellFormed(s string) bool {
	if !strings.HasPrefix(s, KeyPrefix) || len(s) != len(KeyPrefix)+43 {
		return false
	}
	for _, c := range s[len(KeyPrefix):] {
		if !strings.ContainsRune(base62, c) {
			return false
		}
	}
	return true
}
