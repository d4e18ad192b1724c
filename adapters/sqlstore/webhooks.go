package sqlstore

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/dragoman-translate/dragoman/core/webhook"
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

// CreateWebhook stores w with its secret encrypted. An empty ID gets a new
// UUID and a zero CreatedAt the current time; both are written back to w.
func (s *Store) CreateWebhook(ctx context.Context, w *webhook.Webhook) error {
	if w.ID == "" {
		w.ID = uuid.NewString()
	}
	if w.CreatedAt.IsZero() {
		w.CreatedAt = s.clock()
	}
	w.CreatedAt = norm(w.CreatedAt)
	sealed, err := s.seal(w.ID, w.Secret)
	if err != nil {
		return fmt.Errorf("sqlstore: create webhook: %w", err)
	}
	events := w.Events
	if events == nil {
		events = []string{}
	}
	ev, err := json.Marshal(events)
	if err != nil {
		return err
	}
	q := "INSERT INTO webhooks (id, account_id, url, events, secret_enc, is_active, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
	if _, err := s.w.ExecContext(ctx, s.w.Rebind(q), w.ID, w.AccountID, w.URL, string(ev), sealed, w.Active, ts(w.CreatedAt)); err != nil {
		return fmt.Errorf("sqlstore: create webhook: %w", err)
	}
	return nil
}

// ListWebhooks lists an account's webhooks with plain secrets, oldest first.
func (s *Store) ListWebhooks(ctx context.Context, accountID string) ([]*webhook.Webhook, error) {
	var rows []struct {
		ID        string  `db:"id"`
		AccountID string  `db:"account_id"`
		URL       string  `db:"url"`
		Events    string  `db:"events"`
		Secret    []byte  `db:"secret_enc"`
		Active    bool    `db:"is_active"`
		CreatedAt timeCol `db:"created_at"`
	}
	q := "SELECT id, account_id, url, events, secret_enc, is_active, created_at FROM webhooks WHERE account_id = ? ORDER BY created_at, id"
	if err := s.r.SelectContext(ctx, &rows, s.r.Rebind(q), accountID); err != nil {
		return nil, fmt.Errorf("sqlstore: list webhooks: %w", err)
	}
	out := make([]*webhook.Webhook, 0, len(rows))
	for _, r := range rows {
		w := &webhook.Webhook{ID: r.ID, AccountID: r.AccountID, URL: r.URL, Active: r.Active, CreatedAt: r.CreatedAt.Time}
		if err := json.Unmarshal([]byte(r.Events), &w.Events); err != nil {
			return nil, fmt.Errorf("sqlstore: webhook %s events: %w", r.ID, err)
		}
		secret, err := s.open(r.ID, r.Secret)
		if err != nil {
			return nil, fmt.Errorf("sqlstore: %w", err)
		}
		w.Secret = secret
		out = append(out, w)
	}
	return out, nil
}
