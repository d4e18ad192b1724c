package ports

import (
	"context"
	"errors"
	"time"

	"github.com/dragoman-translate/dragoman/core/account"
)

// UserStore keeps the people who sign in to the dashboard and their
// sessions. Sessions are in the database so that every process of a
// scale-out deployment accepts them.
type UserStore interface {
	// CreateUser inserts u; an address already in use is ErrConflict.
	CreateUser(ctx context.Context, u *account.User) error
	GetUser(ctx context.Context, id string) (*account.User, error)
	UserByEmail(ctx context.Context, email string) (*account.User, error)
	UsersOf(ctx context.Context, accountID string) ([]*account.User, error)
	// SetUserDisabled disables or enables a user; disabling ends its sessions.
	SetUserDisabled(ctx context.Context, id string, disabled bool) error
	// SetPassword replaces a user's password hash and ends every session
	// of the user but keep (a token hash; "" ends them all), in one step.
	SetPassword(ctx context.Context, id, passwordHash, keep string) error

	CreateSession(ctx context.Context, s *account.Session) error
	SessionByHash(ctx context.Context, tokenHash string) (*account.Session, error)
	DeleteSession(ctx context.Context, tokenHash string) error
	// DeleteSessionsBefore removes sessions that expired before t.
	DeleteSessionsBefore(ctx context.Context, t time.Time) error
}

// ErrConflict is returned for a record whose unique field is taken.
var ErrConflict = errors.New("already exists")

// KeyCatalog is the dashboard's view of API keys: names and last use.
type KeyCatalog interface {
	// CreateNamedKey stores k (its hash) with a display name.
	CreateNamedKey(ctx context.Context, k account.Key, name string) error
	KeyInfos(ctx context.Context, accountID string) ([]account.KeyInfo, error)
	// TouchKey records that a key was used at at.
	TouchKey(ctx context.Context, keyID string, at time.Time) error
}

// UsageHistory reports charged words per day, for the dashboard's chart.
type UsageHistory interface {
	// DailyUsage maps each day ("2006-01-02", UTC) of an account's period
	// that has charged words to their sum.
	DailyUsage(ctx context.Context, accountID, period string) (map[string]int64, error)
}
