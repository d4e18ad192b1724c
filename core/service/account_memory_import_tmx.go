package service

import (
	"context"
	"errors"
	"io"
	"strings"

	"github.com/dragoman-translate/dragoman/core/ports"
)

// ImportTMX stores a TMX file's translations in the account's memory,
// where later jobs take them before any engine; an entry for a source the
// memory holds replaces it.
func (s *AccountMemory) ImportTMX(ctx context.Context, c *Caller, r io.Reader) (*TMXImport, error) {
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
	if err := s.Store.PutMemory(ctx, c.Account.ID, entries); err != nil {
		return nil, err
	}
	if skipped == nil {
		skipped = []string{}
	}
	return &TMXImport{Imported: len(entries), Skipped: skipped}, nil
}
