package service

import (
	"context"
	"errors"

	"github.com/dragoman-translate/dragoman/core/glossary"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// ListGlossaries lists the caller's glossaries, oldest first, without entries.
func (s *Service) ListGlossaries(ctx context.Context, c *Caller) ([]*glossary.Glossary, error) {
	if s.Glossaries == nil {
		return nil, fail(KindUnavailable, "glossaries are not available on this server")
	}
	return s.Glossaries.ListGlossaries(ctx, c.Account.ID)
}

// GetGlossary reads one of the caller's glossaries with its entries;
// another account's is not found.
func (s *Service) GetGlossary(ctx context.Context, c *Caller, id string) (*glossary.Glossary, error) {
	if s.Glossaries == nil {
		return nil, fail(KindUnavailable, "glossaries are not available on this server")
	}
	g, err := s.Glossaries.GetGlossary(ctx, c.Account.ID, id)
	if errors.Is(err, ports.ErrNotFound) {
		return nil, fail(KindNotFound, "glossary not found")
	}
	return g, err
}

// DoNotTranslate is the caller's account's do-not-translate list, read
// afresh (the caller's copy may predate a change).
func (s *Service) DoNotTranslate(ctx context.Context, c *Caller) ([]string, error) {
	a, err := s.Accounts.GetAccount(ctx, c.Account.ID)
	if err != nil {
		return nil, err
	}
	return orEmpty(a.DoNotTranslate), nil
}
