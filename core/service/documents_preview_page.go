package service

import (
	"context"
	"errors"
	"io"
	"strconv"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// PreviewPage is page n (from 1) of a rendered side, as PNG.
func (s *Documents) PreviewPage(ctx context.Context, c *Caller, id, side string, n int) ([]byte, error) {
	j, err := s.previewable(ctx, c, id, side)
	if err != nil {
		return nil, err
	}
	b, err := s.Blobs.Open(ctx, job.PreviewKey(j, side, strconv.Itoa(n)+".png"))
	if errors.Is(err, ports.ErrNotFound) {
		return nil, fail(KindNotFound, "page %d of the %s is not rendered", n, side)
	}
	if err != nil {
		return nil, err
	}
	defer b.Close()
	return io.ReadAll(b)
}
