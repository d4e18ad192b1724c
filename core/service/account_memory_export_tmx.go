package service

import (
	"github.com/dragoman-translate/dragoman/core/ports"

	"bytes"
	"context"
)

// ExportTMX writes the account's own translation memory (its XLIFF
// post-edits and TMX imports) as TMX 1.4b.
func (s *AccountMemory) ExportTMX(ctx context.Context, c *Caller) ([]byte, error) {
	if err := s.memoryReady(); err != nil {
		return nil, err
	}
	var entries []ports.MemoryEntry
	if err := s.Store.ListMemory(ctx, c.Account.ID, func(e ports.MemoryEntry) error {
		entries = append(entries, e)
		return nil
	}); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := s.TMX.Export(&b, entries); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
