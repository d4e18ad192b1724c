package ports

import (
	"context"
	"io"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/segment"
)

// DocumentEngine reads translatable text out of a document and writes the
// translation back into a copy of it.
type DocumentEngine interface {
	Extract(ctx context.Context, src Blob) (*segment.Document, error)
	// Assemble writes src with every segment replaced by its Target.
	// Warnings report repairs (codes an engine dropped, …).
	Assemble(ctx context.Context, src Blob, doc *segment.Document, out io.Writer) (warnings []string, err error)
}

// LayoutRequest says which directions a layout pass converts between.
type LayoutRequest struct {
	SourceLang string // ISO code
	TargetLang string // ISO code
}

// RTLLayout fixes the direction of an assembled document.
type RTLLayout interface {
	// Estimate pre-scans a source document for what RTL output would lose.
	Estimate(ctx context.Context, src Blob, req LayoutRequest) (*job.RTLReport, error)
	Apply(ctx context.Context, src Blob, req LayoutRequest, out io.Writer) (*job.RTLReport, error)
}

// Assembled is a translated document held in memory over its opened
// source, not yet written: the parts the translation changed, beside the
// source's untouched entries. It lets the assemble and layout stages of
// one process share one opened package and write the document once.
type Assembled interface {
	// WriteTo writes the document (untouched entries copied as they are).
	io.WriterTo
}

// InMemoryAssembler is a DocumentEngine that can assemble without writing
// the document out. The Assembled reads src until it is dropped, so src
// stays open as long as the Assembled is used.
type InMemoryAssembler interface {
	AssembleInMemory(ctx context.Context, src Blob, doc *segment.Document) (Assembled, []string, error)
}

// AssembledLayout is an RTLLayout that lays out an Assembled document of
// the same process and writes the result, the one write of the package.
type AssembledLayout interface {
	ApplyAssembled(ctx context.Context, doc Assembled, req LayoutRequest, out io.Writer) (*job.RTLReport, error)
}

// ExtractCheck is told, during DocumentEngine.Extract, about the units
// just read, in document order (every unit once). An error stops the
// extraction at once and Extract returns it unwrapped, so a caller can
// refuse a document over a cap without reading all of it.
type ExtractCheck func(units []segment.Unit) error

type extractCheckKey struct{}

// WithExtractCheck asks the engine's Extract under ctx to call check.
func WithExtractCheck(ctx context.Context, check ExtractCheck) context.Context {
	return context.WithValue(ctx, extractCheckKey{}, check)
}

// ExtractCheckOf is the check WithExtractCheck set, or nil.
func ExtractCheckOf(ctx context.Context) ExtractCheck {
	c, _ := ctx.Value(extractCheckKey{}).(ExtractCheck)
	return c
}
