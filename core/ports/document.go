package ports

import (
	"context"
	"io"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/segment"
)

// DocumentEngine reads the translatable text of a document and renders
// its translation. A job reads its document twice, both times as a
// stream: once to extract its units, once to render the translation, so
// extraction, translation and rendering overlap and memory is bounded by
// a block of the document, not the document.
type DocumentEngine interface {
	// Read hands src's translatable units to emit in document order, a
	// few at a time as they are read. An error from emit stops the read
	// and Read returns it unwrapped (a document over a cap is refused
	// without reading the rest). The Source renders the translation; it
	// reads src again, so src stays open until it is done.
	Read(ctx context.Context, src Blob, emit func([]segment.Unit) error) (Source, error)
}

// Source is a document read by DocumentEngine.Read, ready to render.
type Source interface {
	// Render writes the document with every segment replaced by its
	// Target (an empty Target keeps the source text), laid out for the
	// direction of req, to out. next returns the units Read emitted, in
	// the same order, translated; io.EOF after the last. The render asks
	// for a unit only once its place is reached (or a little before,
	// where the layout needs to know it), so units may still be being
	// translated while it writes.
	Render(ctx context.Context, next func() (*segment.Unit, error), req LayoutRequest, out io.Writer) (*Rendered, error)
}

// Rendered is what a render found besides the document it wrote.
type Rendered struct {
	// Warnings report repairs (codes an engine dropped, units that no
	// longer match the source, a signature made invalid).
	Warnings []string
	// RTL is the right-to-left layout's report; nil where direction is
	// irrelevant.
	RTL *job.RTLReport
	// Structure is the structure check's verdict on the output against
	// the source (tables, images, links, formatting spans); "" when the
	// engine has no check.
	Structure     string
	StructureLost bool
}

// LayoutRequest says which directions a layout pass converts between.
type LayoutRequest struct {
	SourceLang string // ISO code
	TargetLang string // ISO code
}

// RTLLayout estimates, at submission, what a right-to-left layout of a
// document would lose; the layout itself is a step of the document
// engine's render.
type RTLLayout interface {
	// Estimate pre-scans a source document for what RTL output would lose.
	Estimate(ctx context.Context, src Blob, req LayoutRequest) (*job.RTLReport, error)
}
