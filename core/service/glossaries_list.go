package service

import (
	"context"

	"github.com/dragoman-translate/dragoman/core/glossary"
)

// ListGlossaries lists the caller's glossaries, oldest first, without entries.
func (s *Glossaries) ListGlossaries(ctx context.Context, c *Caller) ([]*glossary.Glossary, error) {
	if s.Glossaries == nil {
		return nil, fail(KindUnavailable, "glossaries are not available on this server")
	}
	return s.Glossaries.ListGlossaries(ctx, c.Account.ID)
}
