package service

import "github.com/dragoman-translate/dragoman/core/ports"

// Glossaries implements the use cases on an account's terminology: its
// glossaries, enforced on the jobs that name them, and its do-not-translate
// list, kept as written by the professional mode.
type Glossaries struct {
	// Glossaries keeps the accounts' glossaries; nil: 503 on their endpoints.
	Glossaries ports.GlossaryStore
	Accounts   ports.AccountStore // holds the do-not-translate list
	Clock      ports.Clock
	NewID      func() string
}
