package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/ports"
)

const accountSelect = "SELECT id, name, plan, suspended, limit_words_override, rpm_override, max_doc_words_override, max_doc_segments_override, do_not_translate, created_at FROM accounts"

type accountRow struct {
	ID             string        `db:"id"`
	Name           string        `db:"name"`
	Plan           string        `db:"plan"`
	Suspended      bool          `db:"suspended"`
	LimitWords     sql.NullInt64 `db:"limit_words_override"`
	RPM            sql.NullInt64 `db:"rpm_override"`
	MaxDocWords    sql.NullInt64 `db:"max_doc_words_override"`
	MaxDocSegments sql.NullInt64 `db:"max_doc_segments_override"`
	DoNotTranslate string        `db:"do_not_translate"`
	CreatedAt      timeCol       `db:"created_at"`
}

func (r *accountRow) account() (*account.Account, error) {
	a := &account.Account{ID: r.ID, Name: r.Name, PlanName: r.Plan, Suspended: r.Suspended, CreatedAt: r.CreatedAt.Time}
	if r.LimitWords.Valid {
		v := r.LimitWords.Int64
		a.LimitWordsOverride = &v
	}
	if r.RPM.Valid {
		v := int(r.RPM.Int64)
		a.RPMOverride = &v
	}
	if r.MaxDocWords.Valid {
		v := r.MaxDocWords.Int64
		a.MaxDocWordsOverride = &v
	}
	if r.MaxDocSegments.Valid {
		v := r.MaxDocSegments.Int64
		a.MaxDocSegmentsOverride = &v
	}
	if err := json.Unmarshal([]byte(r.DoNotTranslate), &a.DoNotTranslate); err != nil {
		return nil, fmt.Errorf("account %s do_not_translate: %w", r.ID, err)
	}
	if len(a.DoNotTranslate) == 0 {
		a.DoNotTranslate = nil
	}
	return a, nil
}

// accountArgs are name, plan, suspended, limit, rpm, the document caps,
// do_not_translate.
func accountArgs(a *account.Account) ([]any, error) {
	dnt := a.DoNotTranslate
	if dnt == nil {
		dnt = []string{}
	}
	b, err := json.Marshal(dnt)
	if err != nil {
		return nil, err
	}
	var limit, rpm, docWords, docSegments any
	if a.LimitWordsOverride != nil {
		limit = *a.LimitWordsOverride
	}
	if a.RPMOverride != nil {
		rpm = int64(*a.RPMOverride)
	}
	if a.MaxDocWordsOverride != nil {
		docWords = *a.MaxDocWordsOverride
	}
	if a.MaxDocSegmentsOverride != nil {
		docSegments = *a.MaxDocSegmentsOverride
	}
	return []any{a.Name, a.PlanName, a.Suspended, limit, rpm, docWords, docSegments, string(b)}, nil
}

// CreateAccount inserts a, normalising CreatedAt to the stored form.
func (s *Store) CreateAccount(ctx context.Context, a *account.Account) error {
	if a.ID == "" {
		return fmt.Errorf("sqlstore: create account: id is required")
	}
	a.CreatedAt = norm(a.CreatedAt)
	args, err := accountArgs(a)
	if err != nil {
		return fmt.Errorf("sqlstore: create account %s: %w", a.ID, err)
	}
	args = append([]any{a.ID}, append(args, ts(a.CreatedAt))...)
	q := "INSERT INTO accounts (id, name, plan, suspended, limit_words_override, rpm_override, max_doc_words_override, max_doc_segments_override, do_not_translate, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
	if _, err := s.w.ExecContext(ctx, s.w.Rebind(q), args...); err != nil {
		return fmt.Errorf("sqlstore: create account %s: %w", a.ID, err)
	}
	return nil
}

// GetAccount reads an account; ports.ErrNotFound if there is none.
func (s *Store) GetAccount(ctx context.Context, id string) (*account.Account, error) {
	var r accountRow
	if err := s.r.GetContext(ctx, &r, s.r.Rebind(accountSelect+" WHERE id = ?"), id); err != nil {
		return nil, fmt.Errorf("sqlstore: get account %s: %w", id, notFound(err))
	}
	return r.account()
}

// UpdateAccount runs fn on the current account in one write transaction
// and writes the result; id and CreatedAt cannot change.
func (s *Store) UpdateAccount(ctx context.Context, id string, fn func(*account.Account) error) (*account.Account, error) {
	var out *account.Account
	err := s.inTx(ctx, func(tx *sqlx.Tx) error {
		var r accountRow
		if err := tx.GetContext(ctx, &r, tx.Rebind(accountSelect+" WHERE id = ?"+s.forUpdate()), id); err != nil {
			return notFound(err)
		}
		a, err := r.account()
		if err != nil {
			return err
		}
		if err := fn(a); err != nil {
			return err
		}
		a.ID, a.CreatedAt = id, r.CreatedAt.Time
		args, err := accountArgs(a)
		if err != nil {
			return err
		}
		q := "UPDATE accounts SET name = ?, plan = ?, suspended = ?, limit_words_override = ?, rpm_override = ?, max_doc_words_override = ?, max_doc_segments_override = ?, do_not_translate = ? WHERE id = ?"
		if _, err := tx.ExecContext(ctx, tx.Rebind(q), append(args, id)...); err != nil {
			return err
		}
		out = a
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("sqlstore: update account %s: %w", id, err)
	}
	return out, nil
}

type keyRow struct {
	ID        string      `db:"id"`
	AccountID string      `db:"account_id"`
	Hash      string      `db:"hash"`
	Hint      string      `db:"hint"`
	CreatedAt timeCol     `db:"created_at"`
	RevokedAt nullTimeCol `db:"revoked_at"`
}

func (r *keyRow) key() account.Key {
	return account.Key{ID: r.ID, AccountID: r.AccountID, Hash: r.Hash, Hint: r.Hint, CreatedAt: r.CreatedAt.Time, RevokedAt: r.RevokedAt.T}
}

const keySelect = "SELECT id, account_id, hash, hint, created_at, revoked_at FROM api_keys"

// CreateKey stores a key (its hash); the account must exist and the hash
// must be new.
func (s *Store) CreateKey(ctx context.Context, k account.Key) error {
	q := "INSERT INTO api_keys (id, account_id, hash, hint, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?)"
	if _, err := s.w.ExecContext(ctx, s.w.Rebind(q), k.ID, k.AccountID, k.Hash, k.Hint, ts(k.CreatedAt), tsPtr(k.RevokedAt)); err != nil {
		return fmt.Errorf("sqlstore: create key %s: %w", k.ID, err)
	}
	return nil
}

// KeyByHash finds a key by its hash, revoked or not (a revoked key answers
// 403, an unknown one 401); ports.ErrNotFound if there is none.
func (s *Store) KeyByHash(ctx context.Context, hash string) (*account.Key, error) {
	var r keyRow
	if err := s.r.GetContext(ctx, &r, s.r.Rebind(keySelect+" WHERE hash = ?"), hash); err != nil {
		return nil, fmt.Errorf("sqlstore: key by hash: %w", notFound(err))
	}
	k := r.key()
	return &k, nil
}

// KeysOf lists an account's keys, oldest first, for the dashboard.
func (s *Store) KeysOf(ctx context.Context, accountID string) ([]account.Key, error) {
	var rows []keyRow
	if err := s.r.SelectContext(ctx, &rows, s.r.Rebind(keySelect+" WHERE account_id = ? ORDER BY created_at, id"), accountID); err != nil {
		return nil, fmt.Errorf("sqlstore: keys of %s: %w", accountID, err)
	}
	keys := make([]account.Key, len(rows))
	for i := range rows {
		keys[i] = rows[i].key()
	}
	return keys, nil
}

// RevokeKey marks a key revoked at at. Revoking again keeps the first
// time; an unknown key is ports.ErrNotFound.
func (s *Store) RevokeKey(ctx context.Context, keyID string, at time.Time) error {
	err := s.inTx(ctx, func(tx *sqlx.Tx) error {
		var n int
		if err := tx.GetContext(ctx, &n, tx.Rebind("SELECT COUNT(*) FROM api_keys WHERE id = ?"), keyID); err != nil {
			return err
		}
		if n == 0 {
			return ports.ErrNotFound
		}
		_, err := tx.ExecContext(ctx, tx.Rebind("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL"), ts(at), keyID)
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlstore: revoke key %s: %w", keyID, err)
	}
	return nil
}
