package sqlstore

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"
)

// SecretKeySize is the length of the server key that encrypts webhook
// secrets (AES-256).
const SecretKeySize = 32

// ErrNoSecretKey is returned when webhook secrets are stored or read
// before SetSecretKey.
var ErrNoSecretKey = errors.New("sqlstore: no secret key set for webhook secrets")

// ParseSecretKey decodes a server key given as 64 hex characters (for
// example DRAGOMAN_SECRET_KEY, made with `openssl rand -hex 32`).
func ParseSecretKey(s string) ([]byte, error) {
	key, err := hex.DecodeString(strings.TrimSpace(s))
	if err != nil || len(key) != SecretKeySize {
		return nil, fmt.Errorf("sqlstore: secret key must be %d hex characters", 2*SecretKeySize)
	}
	return key, nil
}

// SetSecretKey sets the server key that encrypts webhook secrets at rest
// with AES-256-GCM, so a database dump alone does not reveal them. It must
// be the same on every process and across restarts; a different key makes
// stored secrets unreadable.
func (s *Store) SetSecretKey(key []byte) error {
	if len(key) != SecretKeySize {
		return fmt.Errorf("sqlstore: secret key is %d bytes, want %d", len(key), SecretKeySize)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return err
	}
	s.aead.Store(&aead)
	return nil
}

// seal encrypts a secret as nonce||ciphertext, bound to the webhook id so
// a row's secret cannot be swapped into another row.
func (s *Store) seal(id, secret string) ([]byte, error) {
	p := s.aead.Load()
	if p == nil {
		return nil, ErrNoSecretKey
	}
	aead := *p
	nonce := make([]byte, aead.NonceSize(), aead.NonceSize()+len(secret)+aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	return aead.Seal(nonce, nonce, []byte(secret), []byte(id)), nil
}

func (s *Store) open(id string, sealed []byte) (string, error) {
	p := s.aead.Load()
	if p == nil {
		return "", ErrNoSecretKey
	}
	aead := *p
	if len(sealed) < aead.NonceSize() {
		return "", fmt.Errorf("webhook %s: secret too short", id)
	}
	plain, err := aead.Open(nil, sealed[:aead.NonceSize()], sealed[aead.NonceSize():], []byte(id))
	if err != nil {
		return "", fmt.Errorf("webhook %s: decrypt secret (wrong server key?): %w", id, err)
	}
	return string(plain), nil
}

// ReencryptSecrets rotates the server key: every webhook secret sealed
// with oldKey is sealed again with the key given to SetSecretKey. Rows
// that oldKey cannot open are left alone (already rotated), so running it
// twice is harmless. It returns how many secrets it rotated.
func (s *Store) ReencryptSecrets(ctx context.Context, oldKey []byte) (int, error) {
	if len(oldKey) != SecretKeySize {
		return 0, fmt.Errorf("sqlstore: old secret key is %d bytes, want %d", len(oldKey), SecretKeySize)
	}
	block, err := aes.NewCipher(oldKey)
	if err != nil {
		return 0, err
	}
	old, err := cipher.NewGCM(block)
	if err != nil {
		return 0, err
	}
	n := 0
	err = s.inTx(ctx, func(tx *sqlx.Tx) error {
		var rows []struct {
			ID     string `db:"id"`
			Secret []byte `db:"secret_enc"`
		}
		if err := tx.SelectContext(ctx, &rows, "SELECT id, secret_enc FROM webhooks"); err != nil {
			return err
		}
		for _, r := range rows {
			if len(r.Secret) < old.NonceSize() {
				continue
			}
			plain, err := old.Open(nil, r.Secret[:old.NonceSize()], r.Secret[old.NonceSize():], []byte(r.ID))
			if err != nil {
				continue
			}
			sealed, err := s.seal(r.ID, string(plain))
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, tx.Rebind("UPDATE webhooks SET secret_enc = ? WHERE id = ?"), sealed, r.ID); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("sqlstore: re-encrypt webhook secrets: %w", err)
	}
	return n, nil
}
