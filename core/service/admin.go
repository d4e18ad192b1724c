package service

import "github.com/dragoman-translate/dragoman/core/ports"

// Admin implements the operator's use cases on accounts and API keys (the
// admin command line). Errors of kind KindUnprocessable are the operator's
// mistakes; a missing account or key is ports.ErrNotFound.
type Admin struct {
	Accounts ports.AccountStore
	Clock    ports.Clock
	NewID    func() string
}
