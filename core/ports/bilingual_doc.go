package ports

import (
	"context"
	"io"
)

// BilingualComposer writes a bilingual document: the source beside its
// translation, block by block. Compose takes the source and the
// translation assembled into a copy of it (before layout); the layout pass
// then lays the bilingual document out as it does the target-only one, and
// KeepSourceDirection sets the source column back to the source's own
// paragraph directions where the layout's text rules would change them.
type BilingualComposer interface {
	Compose(ctx context.Context, src, translated Blob, out io.Writer) error
	KeepSourceDirection(ctx context.Context, src, laidOut Blob, out io.Writer) error
}
