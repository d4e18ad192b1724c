package pool

import (
	"context"
	"io"
)

// DOCX is an Office Open XML text package. It is never converted (it is
// the pipeline's own format), only rendered to PDF.
var DOCX = Kind{Name: "docx", Ext: "docx", Filters: []string{"MS Word 2007 XML", "Office Open XML Text", "MS Word 2007 XML VBA"}}

// pdfExport is LibreOffice's Writer PDF export filter.
const pdfExport = "writer_pdf_Export"

// RenderPDF reads a document of the given kind from src and writes its PDF
// rendition to dst, on a warm instance like Convert and within the same
// timeout. A document that kills the warm instance is rendered once more
// by a one-shot soffice, as Convert does: LibreOffice's headless view can
// abort on a document the one-shot export renders (oxsdk-Complex01 with
// the -nogui packages). Failures are *Error values.
func (p *Pool) RenderPDF(ctx context.Context, k Kind, src io.Reader, dst io.Writer) error {
	return p.run(ctx, k, src, dst, action{
		out: "out.pdf",
		warm: func(ctx context.Context, in *instance, src, dst string) (answer, error) {
			return in.convert(ctx, src, dst, k.Filters, pdfExport)
		},
		cold: func(ctx context.Context, lim limits, job, src, dst string) error {
			return coldConvert(ctx, p.cfg, lim, job, src, dst, "pdf:"+pdfExport)
		},
	})
}
