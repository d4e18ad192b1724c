package service

import (
	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/quota"
)

// Caller is an authenticated client.
type Caller struct {
	Account *account.Account
	KeyID   string
}

// Accounts implements a client's use cases on its own account: the API key
// that authenticates it and the requests it may make, its usage against
// its plan, and (in the dashboard) its named keys.
type Accounts struct {
	Accounts ports.AccountStore
	Limiter  ports.RateLimiter
	Quota    quota.Store
	// KeyCatalog keeps named keys and their last use; nil where the
	// dashboard is not served (no last use recorded).
	KeyCatalog ports.KeyCatalog
	History    ports.UsageHistory // nil: no words-per-day chart
	Clock      ports.Clock
	NewID      func() string
}
