// Package account holds accounts, their plans and API keys.
package account

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"
)

// Plan is a named set of limits.
type Plan struct {
	Name              string // free, starter, pro, enterprise
	RequestsPerMinute int
	LimitWords        *int64 // nil: unlimited
}

func words(n int64) *int64 { return &n }

// Plans are the published plans. Enterprise starts as Pro and is tuned per
// account with overrides (admin set-plan --limit-words/--requests-per-minute).
var Plans = map[string]Plan{
	"free":       {Name: "free", RequestsPerMinute: 10, LimitWords: words(10_000)},
	"starter":    {Name: "starter", RequestsPerMinute: 30, LimitWords: words(100_000)},
	"pro":        {Name: "pro", RequestsPerMinute: 60, LimitWords: nil},
	"enterprise": {Name: "enterprise", RequestsPerMinute: 120, LimitWords: nil},
}

// ErrUnknownPlan is returned for a plan name not in Plans.
var ErrUnknownPlan = errors.New("unknown plan: want free, starter, pro or enterprise")

// LookupPlan finds a plan by name, case-insensitively.
func LookupPlan(name string) (Plan, error) {
	p, ok := Plans[strings.ToLower(name)]
	if !ok {
		return Plan{}, ErrUnknownPlan
	}
	return p, nil
}

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

// Limits are the effective limits of an account.
func (a *Account) Limits() Plan {
	p, err := LookupPlan(a.PlanName)
	if err != nil {
		p = Plans["free"]
	}
	if a.LimitWordsOverride != nil {
		p.LimitWords = words(*a.LimitWordsOverride)
	}
	if a.RPMOverride != nil {
		p.RequestsPerMinute = *a.RPMOverride
	}
	return p
}

// Period is the billing period (calendar month, UTC) that holds t, as "2006-01".
func Period(t time.Time) string { return t.UTC().Format("2006-01") }

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
