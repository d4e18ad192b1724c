package ports

import (
	"context"
	"io"

	"github.com/dragoman-translate/dragoman/core/job"
)

// BilingualComposer writes a bilingual document: the source beside its
// translation, block by block, laid out for req as the target-only output
// is (the translation column in the target's direction, the source column
// in the source's own paragraph directions).
type BilingualComposer interface {
	// Bilingual takes the source and its translation rendered without
	// layout (Source.Render with an empty LayoutRequest.TargetLang); the
	// report is the layout's, nil where direction is irrelevant.
	Bilingual(ctx context.Context, src, translated Blob, req LayoutRequest, out io.Writer) (*job.RTLReport, error)
}
