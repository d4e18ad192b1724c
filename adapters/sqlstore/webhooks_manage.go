package sqlstore

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"encoding/json"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/webhook"
)

const webhookSelect = "SELECT id, account_id, url, events, secret_enc, is_active, created_at FROM webhooks"

type webhookRow struct {
	ID        string  `db:"id"`
	AccountID string  `db:"account_id"`
	URL       string  `db:"url"`
	Events    string  `db:"events"`
	Secret    []byte  `db:"secret_enc"`
	Active    bool    `db:"is_active"`
	CreatedAt timeCol `db:"created_at"`
}

func (s *Store) webhookOf(r *webhookRow) (*webhook.Webhook, error) {
	w := &webhook.Webhook{ID: r.ID, AccountID: r.AccountID, URL: r.URL, Active: r.Active, CreatedAt: r.CreatedAt.Time}
	if err := json.Unmarshal([]byte(r.Events), &w.Events); err != nil {
		return nil, fmt.Errorf("webhook %s events: %w", r.ID, err)
	}
	secret, err := s.open(r.ID, r.Secret)
	if err != nil {
		return nil, err
	}
	w.Secret = secret
	return w, nil
}

// GetWebhook reads one webhook with its plain secret.
func (s *Store) GetWebhook(ctx context.Context, id string) (*webhook.Webhook, error) {
	var r webhookRow
	if err := s.r.GetContext(ctx, &r, s.r.Rebind(webhookSelect+" WHERE id = ?"), id); err != nil {
		return nil, fmt.Errorf("sqlstore: get webhook %s: %w", id, notFound(err))
	}
	w, err := s.webhookOf(&r)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: %w", err)
	}
	return w, nil
}

// UpdateWebhook changes URL, events and the active flag in one write
// transaction; the id, owner, secret and creation time are kept.
func (s *Store) UpdateWebhook(ctx context.Context, id string, fn func(*webhook.Webhook) error) (*webhook.Webhook, error) {
	var out *webhook.Webhook
	err := s.inTx(ctx, func(tx *sqlx.Tx) error {
		var r webhookRow
		if err := tx.GetContext(ctx, &r, tx.Rebind(webhookSelect+" WHERE id = ?"+s.forUpdate()), id); err != nil {
			return notFound(err)
		}
		w, err := s.webhookOf(&r)
		if err != nil {
			return err
		}
		keep := *w
		if err := fn(w); err != nil {
			return err
		}
		w.ID, w.AccountID, w.Secret, w.CreatedAt = keep.ID, keep.AccountID, keep.Secret, keep.CreatedAt
		events := w.Events
		if events == nil {
			events = []string{}
		}
		ev, err := json.Marshal(events)
		if err != nil {
			return err
		}
		q := "UPDATE webhooks SET url = ?, events = ?, is_active = ? WHERE id = ?"
		if _, err := tx.ExecContext(ctx, tx.Rebind(q), w.URL, string(ev), w.Active, id); err != nil {
			return err
		}
		out = w
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("sqlstore: update webhook %s: %w", id, err)
	}
	return out, nil
}

// DeleteWebhook removes a webhook; its deliveries and history go with it.
func (s *Store) DeleteWebhook(ctx context.Context, id string) error {
	err := s.inTx(ctx, func(tx *sqlx.Tx) error {
		// Explicit deletes, so nothing depends on SQLite's foreign_keys pragma.
		for _, q := range []string{
			"DELETE FROM webhook_attempts WHERE webhook_id = ?",
			"DELETE FROM webhook_deliveries WHERE webhook_id = ?",
		} {
			if _, err := tx.ExecContext(ctx, tx.Rebind(q), id); err != nil {
				return err
			}
		}
		res, err := tx.ExecContext(ctx, tx.Rebind("DELETE FROM webhooks WHERE id = ?"), id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ports.ErrNotFound
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("sqlstore: delete webhook %s: %w", id, err)
	}
	return nil
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
