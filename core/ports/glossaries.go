package ports

import (
	"context"

	"github.com/dragoman-translate/dragoman/core/glossary"
)

// GlossaryStore keeps the accounts' glossaries. Every read and delete is
// scoped to an account: another account's glossary is ErrNotFound.
type GlossaryStore interface {
	CreateGlossary(ctx context.Context, g *glossary.Glossary) error
	// GetGlossary reads a glossary with its entries.
	GetGlossary(ctx context.Context, accountID, id string) (*glossary.Glossary, error)
	// ListGlossaries lists an account's glossaries, oldest first, without
	// their entries (EntryCount is set).
	ListGlossaries(ctx context.Context, accountID string) ([]*glossary.Glossary, error)
	DeleteGlossary(ctx context.Context, accountID, id string) error
}
