package output

import (
	"context"
	"fmt"
	"io"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/segment"
)

// Bilingual builds the bilingual document of a translation and stores it
// under key: doc assembled into a copy of src (no layout yet), composed
// beside src, then laid out by the same layout as the target-only output,
// so its translation column gets the target's direction; the source
// column is then set back to the source's own directions. tmp and the
// names made from it hold the steps for the time of the call.
func (b Builder) Bilingual(ctx context.Context, comp ports.BilingualComposer, src ports.Blob, doc *segment.Document, req ports.LayoutRequest, key, tmp string) (*job.RTLReport, error) {
	defer b.Blobs.Delete(context.WithoutCancel(ctx), tmp)
	if _, err := b.Assemble(ctx, src, doc, tmp); err != nil {
		return nil, fmt.Errorf("assemble: %w", err)
	}
	translated, err := b.Blobs.Open(ctx, tmp)
	if err != nil {
		return nil, err
	}
	defer translated.Close()
	composed := tmp + ".bilingual"
	defer b.Blobs.Delete(context.WithoutCancel(ctx), composed)
	if err := Write(ctx, b.Blobs, composed, func(w io.Writer) error { return comp.Compose(ctx, src, translated, w) }); err != nil {
		return nil, fmt.Errorf("compose: %w", err)
	}
	in, err := b.Blobs.Open(ctx, composed)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	laidOut := tmp + ".laid-out"
	defer b.Blobs.Delete(context.WithoutCancel(ctx), laidOut)
	rtl, err := b.LayOut(ctx, in, req, laidOut)
	if err != nil {
		return nil, fmt.Errorf("lay out: %w", err)
	}
	lo, err := b.Blobs.Open(ctx, laidOut)
	if err != nil {
		return nil, err
	}
	defer lo.Close()
	err = Write(ctx, b.Blobs, key, func(w io.Writer) error { return comp.KeepSourceDirection(ctx, src, lo, w) })
	return rtl, err
}
