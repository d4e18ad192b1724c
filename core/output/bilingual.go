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
// so its translation column gets the target's direction and the source
// column keeps its own. tmp and tmp+".bilingual" hold the steps for the
// time of the call.
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
	return b.LayOut(ctx, in, req, key)
}
