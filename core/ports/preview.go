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

// PDFRenderer renders a document to PDF: the PDF downloads of translated
// documents, and the first step of a preview. The LibreOffice converter
// plugin does it on its warm pool.
type PDFRenderer interface {
	// RenderPDF reads a document whose format format names (docx, doc,
	// odt, rtf) from in and writes its PDF rendition to out.
	RenderPDF(ctx context.Context, format string, in io.Reader, out io.Writer) error
}

// PDFText reads the text of a PDF as its renderer laid it out, pages
// separated by form feeds: the review finds in it text a fixed-size box
// cut off, and counts the pages. poppler's pdftotext does it.
type PDFText interface {
	PDFText(ctx context.Context, pdf io.Reader) (string, error)
}
