package ports

import (
	"context"
	"io"
)

// PageRenderer renders a document to page images, so a person sees the
// layout (right to left included) before downloading.
type PageRenderer interface {
	// RenderPages renders doc, whose format ext names (docx, doc, odt,
	// rtf), to PNG images of at most max pages, first page first.
	RenderPages(ctx context.Context, doc io.Reader, ext string, max int) ([][]byte, error)
}
