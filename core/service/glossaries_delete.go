package service

import (
	"context"
	"errors"

	"github.com/dragoman-translate/dragoman/core/ports"
)

// DeleteGlossary removes one of the caller's glossaries. Jobs already
// submitted with it fail at translation with a message saying so.
func (s *Glossaries) DeleteGlossary(ctx context.Context, c *Caller, id string) error {
	if s.Glossaries == nil {
		return fail(KindUnavailable, "glossaries are not available on this server")
	}
	err := s.Glossaries.DeleteGlossary(ctx, c.Account.ID, id)
	if errors.Is(err, ports.ErrNotFound) {
		return fail(KindNotFound, "glossary not found")
	}
	return err
}
