package service

import (
	"context"
	"errors"

	"github.com/dragoman-translate/dragoman/core/glossary"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// GetGlossary reads one of the caller's glossaries with its entries;
// another account's is not found.
func (s *Glossaries) GetGlossary(ctx context.Context, c *Caller, id string) (*glossary.Glossary, error) {
	if s.Glossaries == nil {
		return nil, fail(KindUnavailable, "glossaries are not available on this server")
	}
	g, err := s.Glossaries.GetGlossary(ctx, c.Account.ID, id)
	if errors.Is(err, ports.ErrNotFound) {
		return nil, fail(KindNotFound, "glossary not found")
	}
	return g, err
}
