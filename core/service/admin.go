package service

import "github.com/dragoman-translate/dragoman/core/ports"

// Admin implements the operator's use cases on accounts, API keys and the
// people who sign in to an account's dashboard (the admin command line). Errors of kind KindUnprocessable are the operator's
// mistakes; a missing account or key is ports.ErrNotFound.
type Admin struct {
	Accounts ports.AccountStore
	Users    ports.UserStore // nil: no user commands
	Clock    ports.Clock
	NewID    func() string
}
