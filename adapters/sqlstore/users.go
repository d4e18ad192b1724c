package sqlstore

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/ports"
)

var (
	_ ports.UserStore    = (*Store)(nil)
	_ ports.KeyCatalog   = (*Store)(nil)
	_ ports.UsageHistory = (*Store)(nil)
)

type userRow struct {
	ID           string  `db:"id"`
	AccountID    string  `db:"account_id"`
	Email        string  `db:"email"`
	PasswordHash string  `db:"password_hash"`
	Disabled     bool    `db:"disabled"`
	CreatedAt    timeCol `db:"created_at"`
}

func (r *userRow) user() *account.User {
	return &account.User{ID: r.ID, AccountID: r.AccountID, Email: r.Email, PasswordHash: r.PasswordHash, Disabled: r.Disabled, CreatedAt: r.CreatedAt.Time}
}

const userSelect = "SELECT id, account_id, email, password_hash, disabled, created_at FROM users"

// CreateUser inserts u; an address already taken is ports.ErrConflict.
func (s *Store) CreateUser(ctx context.Context, u *account.User) error {
	u.CreatedAt = norm(u.CreatedAt)
	q := "INSERT INTO users (id, account_id, email, password_hash, disabled, created_at) VALUES (?, ?, ?, ?, ?, ?)"
	if _, err := s.w.ExecContext(ctx, s.w.Rebind(q), u.ID, u.AccountID, u.Email, u.PasswordHash, u.Disabled, ts(u.CreatedAt)); err != nil {
		if isUniqueViolation(err) {
			return fmt.Errorf("sqlstore: create user %s: %w", u.Email, ports.ErrConflict)
		}
		return fmt.Errorf("sqlstore: create user %s: %w", u.Email, err)
	}
	return nil
}

func isUniqueViolation(err error) bool {
	m := strings.ToLower(err.Error())
	return strings.Contains(m, "unique") || strings.Contains(m, "duplicate key")
}

func (s *Store) getUser(ctx context.Context, where string, arg any) (*account.User, error) {
	var r userRow
	if err := s.r.GetContext(ctx, &r, s.r.Rebind(userSelect+" WHERE "+where), arg); err != nil {
		return nil, fmt.Errorf("sqlstore: get user: %w", notFound(err))
	}
	return r.user(), nil
}

// GetUser reads a user by id; ports.ErrNotFound if none.
func (s *Store) GetUser(ctx context.Context, id string) (*account.User, error) {
	return s.getUser(ctx, "id = ?", id)
}

// UserByEmail reads a user by address (stored in lower case).
func (s *Store) UserByEmail(ctx context.Context, email string) (*account.User, error) {
	return s.getUser(ctx, "email = ?", email)
}

// UsersOf lists an account's users, oldest first.
func (s *Store) UsersOf(ctx context.Context, accountID string) ([]*account.User, error) {
	var rows []userRow
	if err := s.r.SelectContext(ctx, &rows, s.r.Rebind(userSelect+" WHERE account_id = ? ORDER BY created_at, id"), accountID); err != nil {
		return nil, fmt.Errorf("sqlstore: users of %s: %w", accountID, err)
	}
	out := make([]*account.User, len(rows))
	for i := range rows {
		out[i] = rows[i].user()
	}
	return out, nil
}

// SetUserDisabled sets the disabled flag; disabling deletes the user's sessions.
func (s *Store) SetUserDisabled(ctx context.Context, id string, disabled bool) error {
	res, err := s.w.ExecContext(ctx, s.w.Rebind("UPDATE users SET disabled = ? WHERE id = ?"), disabled, id)
	if err != nil {
		return fmt.Errorf("sqlstore: disable user %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("sqlstore: disable user %s: %w", id, ports.ErrNotFound)
	}
	if disabled {
		if _, err := s.w.ExecContext(ctx, s.w.Rebind("DELETE FROM sessions WHERE user_id = ?"), id); err != nil {
			return fmt.Errorf("sqlstore: end sessions of %s: %w", id, err)
		}
	}
	return nil
}

// SetPassword replaces the password hash and deletes the user's other
// sessions in one transaction: a session opened with the old password
// cannot outlive the change.
func (s *Store) SetPassword(ctx context.Context, id, hash, keep string) error {
	tx, err := s.w.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlstore: set password of %s: %w", id, err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, tx.Rebind("UPDATE users SET password_hash = ? WHERE id = ?"), hash, id)
	if err != nil {
		return fmt.Errorf("sqlstore: set password of %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("sqlstore: set password of %s: %w", id, ports.ErrNotFound)
	}
	if _, err := tx.ExecContext(ctx, tx.Rebind("DELETE FROM sessions WHERE user_id = ? AND token_hash <> ?"), id, keep); err != nil {
		return fmt.Errorf("sqlstore: end sessions of %s: %w", id, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlstore: set password of %s: %w", id, err)
	}
	return nil
}

type sessionRow struct {
	TokenHash string  `db:"token_hash"`
	UserID    string  `db:"user_id"`
	CSRF      string  `db:"csrf"`
	CreatedAt timeCol `db:"created_at"`
	ExpiresAt timeCol `db:"expires_at"`
}

// CreateSession stores a session by its token's hash.
func (s *Store) CreateSession(ctx context.Context, ss *account.Session) error {
	q := "INSERT INTO sessions (token_hash, user_id, csrf, created_at, expires_at) VALUES (?, ?, ?, ?, ?)"
	if _, err := s.w.ExecContext(ctx, s.w.Rebind(q), ss.TokenHash, ss.UserID, ss.CSRF, ts(ss.CreatedAt), ts(ss.ExpiresAt)); err != nil {
		return fmt.Errorf("sqlstore: create session: %w", err)
	}
	return nil
}

// SessionByHash reads a session; ports.ErrNotFound if none.
func (s *Store) SessionByHash(ctx context.Context, h string) (*account.Session, error) {
	var r sessionRow
	q := "SELECT token_hash, user_id, csrf, created_at, expires_at FROM sessions WHERE token_hash = ?"
	if err := s.r.GetContext(ctx, &r, s.r.Rebind(q), h); err != nil {
		return nil, fmt.Errorf("sqlstore: session: %w", notFound(err))
	}
	return &account.Session{TokenHash: r.TokenHash, UserID: r.UserID, CSRF: r.CSRF, CreatedAt: r.CreatedAt.Time, ExpiresAt: r.ExpiresAt.Time}, nil
}

// DeleteSession ends a session; an unknown one is no error.
func (s *Store) DeleteSession(ctx context.Context, h string) error {
	if _, err := s.w.ExecContext(ctx, s.w.Rebind("DELETE FROM sessions WHERE token_hash = ?"), h); err != nil {
		return fmt.Errorf("sqlstore: delete session: %w", err)
	}
	return nil
}

// DeleteSessionsBefore removes sessions that expired before t.
func (s *Store) DeleteSessionsBefore(ctx context.Context, t time.Time) error {
	if _, err := s.w.ExecContext(ctx, s.w.Rebind("DELETE FROM sessions WHERE expires_at < ?"), ts(t)); err != nil {
		return fmt.Errorf("sqlstore: delete expired sessions: %w", err)
	}
	return nil
}

// CreateNamedKey stores a key (its hash) with a display name.
func (s *Store) CreateNamedKey(ctx context.Context, k account.Key, name string) error {
	q := "INSERT INTO api_keys (id, account_id, hash, hint, created_at, revoked_at, name) VALUES (?, ?, ?, ?, ?, ?, ?)"
	if _, err := s.w.ExecContext(ctx, s.w.Rebind(q), k.ID, k.AccountID, k.Hash, k.Hint, ts(k.CreatedAt), tsPtr(k.RevokedAt), name); err != nil {
		return fmt.Errorf("sqlstore: create key %s: %w", k.ID, err)
	}
	return nil
}

type keyInfoRow struct {
	keyRow
	Name       string      `db:"name"`
	LastUsedAt nullTimeCol `db:"last_used_at"`
}

// KeyInfos lists an account's keys with names and last use, oldest first.
func (s *Store) KeyInfos(ctx context.Context, accountID string) ([]account.KeyInfo, error) {
	var rows []keyInfoRow
	q := "SELECT id, account_id, hash, hint, created_at, revoked_at, name, last_used_at FROM api_keys WHERE account_id = ? ORDER BY created_at, id"
	if err := s.r.SelectContext(ctx, &rows, s.r.Rebind(q), accountID); err != nil {
		return nil, fmt.Errorf("sqlstore: keys of %s: %w", accountID, err)
	}
	out := make([]account.KeyInfo, len(rows))
	for i := range rows {
		out[i] = account.KeyInfo{Key: rows[i].key(), Name: rows[i].Name, LastUsedAt: rows[i].LastUsedAt.T}
	}
	return out, nil
}

// TouchKey records a key's use; an older time never replaces a newer one.
func (s *Store) TouchKey(ctx context.Context, keyID string, at time.Time) error {
	q := "UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)"
	if _, err := s.w.ExecContext(ctx, s.w.Rebind(q), ts(at), keyID, ts(at)); err != nil {
		return fmt.Errorf("sqlstore: touch key %s: %w", keyID, err)
	}
	return nil
}

// DailyUsage sums the words charged to an account's period by day (UTC,
// "2006-01-02"); refunded jobs count nothing.
func (s *Store) DailyUsage(ctx context.Context, accountID, period string) (map[string]int64, error) {
	var rows []struct {
		Day   string `db:"reserved_on"`
		Words int64  `db:"words"`
	}
	q := "SELECT reserved_on, SUM(words) AS words FROM usage_reservations WHERE account_id = ? AND period = ? AND reserved_on <> '' GROUP BY reserved_on"
	if err := s.r.SelectContext(ctx, &rows, s.r.Rebind(q), accountID, period); err != nil {
		return nil, fmt.Errorf("sqlstore: daily usage of %s: %w", accountID, err)
	}
	out := make(map[string]int64, len(rows))
	for _, r := range rows {
		out[r.Day] = r.Words
	}
	return out, nil
}
