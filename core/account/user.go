package account

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"golang.org/x/crypto/argon2"
)

// User is a person who signs in to an account's dashboard.
type User struct {
	ID           string
	AccountID    string
	Email        string // lower case
	PasswordHash string // Argon2id in PHC string form
	Disabled     bool
	CreatedAt    time.Time
}

// Session is a signed-in browser. Only the token's hash is stored; CSRF is
// the token every form of the session carries.
type Session struct {
	TokenHash string
	UserID    string
	CSRF      string
	CreatedAt time.Time
	ExpiresAt time.Time
}

// NormalizeEmail is the stored form of an address.
func NormalizeEmail(e string) string { return strings.ToLower(strings.TrimSpace(e)) }

// ValidEmail is a light check: one @ with something on both sides, no spaces.
func ValidEmail(e string) bool {
	at := strings.IndexByte(e, '@')
	return at > 0 && at < len(e)-1 && strings.Count(e, "@") == 1 && !strings.ContainsAny(e, " \t\r\n<>\"")
}

// MinPasswordLength is the shortest password accepted.
const MinPasswordLength = 10

// Argon2id parameters (RFC 9106's second recommended option, lighter on
// memory): 64 MiB, 3 passes, 2 lanes, 32-byte key, 16-byte salt.
const (
	argonMemory  = 64 * 1024
	argonTime    = 3
	argonThreads = 2
	argonKeyLen  = 32
)

// HashPassword returns the Argon2id hash of pw in PHC form:
// $argon2id$v=19$m=65536,t=3,p=2$<salt>$<key>.
func HashPassword(pw string) (string, error) {
	if len(pw) < MinPasswordLength {
		return "", fmt.Errorf("password: at least %d characters", MinPasswordLength)
	}
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key := argon2.IDKey([]byte(pw), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemory, argonTime, argonThreads,
		b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// ErrBadHash is returned for a stored hash that cannot be read.
var ErrBadHash = errors.New("unreadable password hash")

// CheckPassword reports whether pw matches a hash made by HashPassword,
// comparing in constant time.
func CheckPassword(hash, pw string) (bool, error) {
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false, ErrBadHash
	}
	var v int
	var m uint32
	var t uint32
	var p uint8
	if _, err := fmt.Sscanf(parts[2], "v=%d", &v); err != nil || v != argon2.Version {
		return false, ErrBadHash
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil || m == 0 || t == 0 || p == 0 {
		return false, ErrBadHash
	}
	b64 := base64.RawStdEncoding
	salt, err1 := b64.DecodeString(parts[4])
	want, err2 := b64.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(want) == 0 {
		return false, ErrBadHash
	}
	got := argon2.IDKey([]byte(pw), salt, t, m, p, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}

// dummyHash is checked against when a sign-in names no user, so that an
// unknown address takes as long as a wrong password.
var dummyHash, _ = HashPassword("dragoman-no-such-user")

// BurnPasswordCheck spends the time of one password check.
func BurnPasswordCheck(pw string) { _, _ = CheckPassword(dummyHash, pw) }

// RandomToken is n random bytes, base64url without padding.
func RandomToken(n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// HashToken is the stored form of a session token.
func HashToken(tok string) string {
	sum := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(sum[:])
}

// KeyInfo is an API key as the dashboard lists it.
type KeyInfo struct {
	Key
	Name       string
	LastUsedAt *time.Time
}
