package sqlstore

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/dragoman-translate/dragoman/core/webhook"
)

var _ webhook.Queue = (*Store)(nil)

// Delivery states.
const (
	deliveryPending   = "pending"
	deliveryDelivered = "delivered"
	deliveryFailed    = "failed"    // abandoned after the last attempt
	deliveryCancelled = "cancelled" // the webhook was deactivated first
)

// errInterrupted is the history's note for an attempt whose worker never
// reported back (it stopped or lost the database).
const errInterrupted = "interrupted: the worker stopped before recording the receiver's answer"

// EnqueueDelivery queues d, due at d.CreatedAt (now if zero), unless the
// webhook already has a delivery of the same event.
func (s *Store) EnqueueDelivery(ctx context.Context, d *webhook.Delivery) (bool, error) {
	if d.ID == "" || d.WebhookID == "" || d.EventID == "" {
		return false, fmt.Errorf("sqlstore: enqueue delivery: id, webhook id and event id are required")
	}
	if d.CreatedAt.IsZero() {
		d.CreatedAt = s.clock()
	}
	d.CreatedAt = norm(d.CreatedAt)
	at := ts(d.CreatedAt)
	q := `INSERT INTO webhook_deliveries (id, webhook_id, account_id, event_id, event, payload, state, attempts, leased, next_at, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, FALSE, ?, ?, ?) ON CONFLICT (event_id, webhook_id) DO NOTHING`
	res, err := s.w.ExecContext(ctx, s.w.Rebind(q), d.ID, d.WebhookID, d.AccountID, d.EventID, d.Event, string(d.Payload), at, at, at)
	if err != nil {
		return false, fmt.Errorf("sqlstore: enqueue delivery of %s to %s: %w", d.EventID, d.WebhookID, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

type dueRow struct {
	ID        string  `db:"id"`
	WebhookID string  `db:"webhook_id"`
	AccountID string  `db:"account_id"`
	EventID   string  `db:"event_id"`
	Event     string  `db:"event"`
	Payload   string  `db:"payload"`
	Attempts  int     `db:"attempts"`
	Leased    bool    `db:"leased"`
	CreatedAt timeCol `db:"created_at"`
	URL       string  `db:"url"`
	Secret    []byte  `db:"secret_enc"`
	Active    bool    `db:"is_active"`
}

// perWebhookLook is how many of one webhook's due deliveries a claim
// looks at.
const perWebhookLook = 4

// ClaimDeliveries implements webhook.Queue. The claim is one short
// write transaction: SQLite's immediate transaction holds the write lock,
// PostgreSQL skips rows other workers are claiming, and each update checks
// the attempt count it read, so one attempt number is handed out once.
func (s *Store) ClaimDeliveries(ctx context.Context, now time.Time, lease time.Duration, max, maxAttempts int, admit webhook.Admit) ([]*webhook.Claim, error) {
	if max <= 0 {
		return nil, nil
	}
	now = norm(now)
	var out []*webhook.Claim
	err := s.inTx(ctx, func(tx *sqlx.Tx) error {
		out = out[:0]
		// The due deliveries in turns: at most perWebhookLook of each
		// webhook, so a webhook with a pile of due deliveries (its
		// receiver hangs) leaves room for the others'; and the accounts
		// in turn (each one's oldest first, then each one's next: webhooks
		// in turn within an account), so an account whose many webhooks
		// piled up cannot fill the window with deliveries admit holds
		// back and hide another account's. The outer due condition is
		// what PostgreSQL checks again on a row another worker claimed
		// meanwhile (the subquery's snapshot is older).
		q := `SELECT d.id, d.webhook_id, d.account_id, d.event_id, d.event, d.payload, d.attempts, d.leased, d.created_at,
				w.url, w.secret_enc, w.is_active
			FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
			JOIN (SELECT id, ROW_NUMBER() OVER (PARTITION BY account_id ORDER BY n, next_at, id) AS turn
				FROM (SELECT id, account_id, next_at, ROW_NUMBER() OVER (PARTITION BY webhook_id ORDER BY next_at, id) AS n
					FROM webhook_deliveries WHERE state = 'pending' AND next_at <= ?) hooks
				WHERE n <= ?) due ON due.id = d.id
			WHERE d.state = 'pending' AND d.next_at <= ?
			ORDER BY due.turn, d.next_at, d.id LIMIT ?`
		if s.dialect == postgresDialect {
			q += " FOR UPDATE OF d SKIP LOCKED"
		}
		var rows []dueRow
		look := 64
		if 8*max > look {
			look = 8 * max
		}
		if err := tx.SelectContext(ctx, &rows, tx.Rebind(q), ts(now), perWebhookLook, ts(now), look); err != nil {
			return err
		}
		for i := range rows {
			if len(out) == max {
				break
			}
			if r := &rows[i]; r.Active && r.Attempts < maxAttempts && admit != nil && !admit(r.AccountID, r.URL) {
				continue // its destination is busy: it stays due
			}
			c, err := s.claim(ctx, tx, &rows[i], now, lease, maxAttempts)
			if err != nil {
				return err
			}
			if c != nil {
				out = append(out, c)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("sqlstore: claim deliveries: %w", err)
	}
	return out, nil
}

// claim takes one due row: it closes an attempt left in flight, ends the
// delivery if it may not go on, else starts the next attempt.
func (s *Store) claim(ctx context.Context, tx *sqlx.Tx, r *dueRow, now time.Time, lease time.Duration, maxAttempts int) (*webhook.Claim, error) {
	if r.Leased {
		q := "UPDATE webhook_attempts SET state = ?, error = ? WHERE delivery_id = ? AND attempt = ? AND state = ?"
		if _, err := tx.ExecContext(ctx, tx.Rebind(q), webhook.AttemptFailed, errInterrupted, r.ID, r.Attempts, webhook.AttemptInProgress); err != nil {
			return nil, err
		}
	}
	end := ""
	switch {
	case !r.Active:
		end = deliveryCancelled
	case r.Attempts >= maxAttempts:
		end = deliveryFailed
	}
	if end != "" {
		q := "UPDATE webhook_deliveries SET state = ?, leased = FALSE, updated_at = ? WHERE id = ? AND attempts = ?"
		_, err := tx.ExecContext(ctx, tx.Rebind(q), end, ts(now), r.ID, r.Attempts)
		return nil, err
	}
	attempt := r.Attempts + 1
	q := `UPDATE webhook_deliveries SET attempts = ?, leased = TRUE, next_at = ?, updated_at = ?
		WHERE id = ? AND attempts = ? AND state = 'pending'`
	res, err := tx.ExecContext(ctx, tx.Rebind(q), attempt, ts(now.Add(lease)), ts(now), r.ID, r.Attempts)
	if err != nil {
		return nil, err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return nil, err // taken by another worker meanwhile
	}
	// A secret this key cannot open fails the attempt in the history
	// rather than blocking the queue; fixing the key lets later ones pass.
	secret, openErr := s.open(r.WebhookID, r.Secret)
	state, msg := webhook.AttemptInProgress, ""
	if openErr != nil {
		state, msg = webhook.AttemptFailed, "not sent: the server cannot decrypt this webhook's secret (server key changed?)"
	}
	q = "INSERT INTO webhook_attempts (delivery_id, attempt, webhook_id, started_at, state, error) VALUES (?, ?, ?, ?, ?, ?)"
	if _, err := tx.ExecContext(ctx, tx.Rebind(q), r.ID, attempt, r.WebhookID, ts(now), state, msg); err != nil {
		return nil, err
	}
	if openErr != nil {
		q := "UPDATE webhook_deliveries SET leased = FALSE WHERE id = ?"
		_, err := tx.ExecContext(ctx, tx.Rebind(q), r.ID)
		return nil, err
	}
	return &webhook.Claim{
		Delivery: webhook.Delivery{
			ID: r.ID, WebhookID: r.WebhookID, AccountID: r.AccountID, EventID: r.EventID,
			Event: r.Event, Payload: []byte(r.Payload), CreatedAt: r.CreatedAt.Time,
		},
		URL: r.URL, Secret: secret, Attempt: attempt, At: now,
	}, nil
}

// FinishAttempt implements webhook.Queue.
func (s *Store) FinishAttempt(ctx context.Context, c *webhook.Claim, r webhook.AttemptResult, next *time.Time) error {
	state := webhook.AttemptFailed
	if r.OK {
		state = webhook.AttemptSucceeded
	}
	dstate, nextAt := deliveryPending, c.At
	switch {
	case next != nil:
		nextAt = *next
	case r.OK:
		dstate = deliveryDelivered
	default:
		dstate = deliveryFailed
	}
	now := s.clock()
	err := s.inTx(ctx, func(tx *sqlx.Tx) error {
		q := "UPDATE webhook_attempts SET state = ?, status_code = ?, latency_us = ?, error = ? WHERE delivery_id = ? AND attempt = ? AND state = ?"
		res, err := tx.ExecContext(ctx, tx.Rebind(q), state, r.StatusCode, r.Latency.Microseconds(), r.Error,
			c.Delivery.ID, c.Attempt, webhook.AttemptInProgress)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return webhook.ErrLeaseLost
		}
		q = "UPDATE webhook_deliveries SET state = ?, leased = FALSE, next_at = ?, updated_at = ? WHERE id = ? AND attempts = ? AND leased = TRUE"
		res, err = tx.ExecContext(ctx, tx.Rebind(q), dstate, ts(nextAt), ts(now), c.Delivery.ID, c.Attempt)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return webhook.ErrLeaseLost
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("sqlstore: finish attempt %d of delivery %s: %w", c.Attempt, c.Delivery.ID, err)
	}
	return nil
}

// ListAttempts is a webhook's delivery history, newest first.
func (s *Store) ListAttempts(ctx context.Context, webhookID string, limit int) ([]webhook.Attempt, error) {
	if limit <= 0 {
		limit = 100
	}
	var rows []struct {
		DeliveryID string  `db:"delivery_id"`
		Attempt    int     `db:"attempt"`
		WebhookID  string  `db:"webhook_id"`
		EventID    string  `db:"event_id"`
		Event      string  `db:"event"`
		StartedAt  timeCol `db:"started_at"`
		State      string  `db:"state"`
		StatusCode int     `db:"status_code"`
		LatencyUS  int64   `db:"latency_us"`
		Error      string  `db:"error"`
	}
	q := `SELECT a.delivery_id, a.attempt, a.webhook_id, d.event_id, d.event, a.started_at, a.state, a.status_code, a.latency_us, a.error
		FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
		WHERE a.webhook_id = ? ORDER BY a.started_at DESC, a.attempt DESC, a.delivery_id LIMIT ?`
	if err := s.r.SelectContext(ctx, &rows, s.r.Rebind(q), webhookID, limit); err != nil {
		return nil, fmt.Errorf("sqlstore: list delivery attempts of %s: %w", webhookID, err)
	}
	out := make([]webhook.Attempt, len(rows))
	for i, r := range rows {
		out[i] = webhook.Attempt{
			DeliveryID: r.DeliveryID, WebhookID: r.WebhookID, EventID: r.EventID, Event: r.Event,
			Attempt: r.Attempt, At: r.StartedAt.Time, State: r.State, StatusCode: r.StatusCode,
			Latency: time.Duration(r.LatencyUS) * time.Microsecond, Error: r.Error,
		}
	}
	return out, nil
}

// NextDeliveryDue is when the earliest pending attempt falls due (a retry,
// or a lease running out); ok is false when nothing is pending. The
// webhook worker sleeps until then.
func (s *Store) NextDeliveryDue(ctx context.Context) (time.Time, bool, error) {
	var next nullTimeCol
	if err := s.r.GetContext(ctx, &next, "SELECT MIN(next_at) FROM webhook_deliveries WHERE state = 'pending'"); err != nil {
		return time.Time{}, false, fmt.Errorf("sqlstore: next due delivery: %w", err)
	}
	if next.T == nil {
		return time.Time{}, false, nil
	}
	return *next.T, true, nil
}

// PruneDeliveries removes finished deliveries (and their history) created
// before t; it returns how many.
func (s *Store) PruneDeliveries(ctx context.Context, t time.Time) (int64, error) {
	var n int64
	err := s.inTx(ctx, func(tx *sqlx.Tx) error {
		done := "SELECT id FROM webhook_deliveries WHERE state <> 'pending' AND created_at < ?"
		if _, err := tx.ExecContext(ctx, tx.Rebind("DELETE FROM webhook_attempts WHERE delivery_id IN ("+done+")"), ts(t)); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, tx.Rebind("DELETE FROM webhook_deliveries WHERE state <> 'pending' AND created_at < ?"), ts(t))
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("sqlstore: prune deliveries: %w", err)
	}
	return n, nil
}
