package ports

import (
	"context"
	"io"
)

// BilingualComposer writes a bilingual document: the source beside its
// translation, block by block, from the source and the translation
// assembled into a copy of it (before layout: the layout pass then lays the
// bilingual document out as it does the target-only one).
type BilingualComposer interface {
	Compose(ctx context.Context, src, translated Blob, out io.Writer) error
}
