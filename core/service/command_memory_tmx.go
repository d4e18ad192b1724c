package service

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"

	"github.com/dragoman-translate/dragoman/core/ports"
)

// TMXImport is what importing a TMX file did.
type TMXImport struct {
	Imported int      // entries stored (one per source and target language)
	Skipped  []string // translation units left out, and why
}

func (s *Service) memoryReady() error {
	if s.Memory == nil || s.TMX == nil {
		return fail(KindUnavailable, "the translation memory is not configured")
	}
	return nil
}

// ExportTMX writes the account's own translation memory (its XLIFF
// post-edits and TMX imports) as TMX 1.4b.
func (s *Service) ExportTMX(ctx context.Context, c *Caller) ([]byte, error) {
	if err := s.memoryReady(); err != nil {
		return nil, err
	}
	var entries []ports.MemoryEntry
	if err := s.Memory.ListMemory(ctx, c.Account.ID, func(e ports.MemoryEntry) error {
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

// ImportTMX stores a TMX file's translations in the account's memory,
// where later jobs take them before any engine; an entry for a source the
// memory holds replaces it.
func (s *Service) ImportTMX(ctx context.Context, c *Caller, r io.Reader) (*TMXImport, error) {
	if err := s.memoryReady(); err != nil {
		return nil, err
	}
	entries, skipped, err := s.TMX.Import(r)
	if errors.Is(err, ports.ErrBilingualTooLarge) {
		return nil, &Error{Kind: KindTooLarge, Message: err.Error(), Err: err}
	}
	if errors.Is(err, ports.ErrBadBilingual) {
		return nil, &Error{Kind: KindUnprocessable, Message: strings.TrimPrefix(err.Error(), ports.ErrBadBilingual.Error()+": "), Err: err}
	}
	if err != nil {
		return nil, err
	}
	if err := s.Memory.PutMemory(ctx, c.Account.ID, entries); err != nil {
		return nil, err
	}
	if skipped == nil {
		skipped = []string{}
	}
	return &TMXImport{Imported: len(entries), Skipped: skipped}, nil
}
