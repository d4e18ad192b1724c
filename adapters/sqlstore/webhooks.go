package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/uuid"
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
