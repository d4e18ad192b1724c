package pool

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// DOCX is an Office Open XML text package. It is never converted (it is
// the pipeline's own format), only rendered to PDF.
var DOCX = Kind{Name: "docx", Ext: "docx", Filters: []string{"MS Word 2007 XML", "Office Open XML Text", "MS Word 2007 XML VBA"}}

// pdfExport is LibreOffice's Writer PDF export filter.
const pdfExport = "writer_pdf_Export"

// RenderPDF reads a document of the given kind from src and writes its PDF
// rendition to dst, on a warm instance like Convert and within the same
// timeout. There is no cold retry: a document that kills a warm instance
// on export is reported as Crashed. Failures are *Error values.
func (p *Pool) RenderPDF(ctx context.Context, k Kind, src io.Reader, dst io.Writer) error {
	job, err := os.MkdirTemp(p.work, "job-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(job)
	srcPath, dstPath := filepath.Join(job, "in."+k.Ext), filepath.Join(job, "out.pdf")
	size, err := writeSource(srcPath, k, src)
	if err != nil {
		return err
	}
	size = workSize(srcPath, k, size)
	timeout := p.cfg.TimeoutFor(size)
	// As in Convert: starting an instance does not eat the document's time.
	wctx, wcancel := context.WithTimeout(ctx, timeout+p.cfg.StartTimeout)
	in, err := p.acquire(wctx)
	wcancel()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	a, err := in.export(ctx, srcPath, dstPath, k.Filters, pdfExport)
	if err != nil {
		p.discard(in, err)
		if ctx.Err() != nil {
			return &Error{Reason: TimedOut, Detail: fmt.Sprintf("after %s", timeout)}
		}
		return &Error{Reason: Crashed, Detail: err.Error()}
	}
	if size > p.cfg.RecycleAbove {
		p.retire(in)
	} else {
		p.release(in)
	}
	if !a.OK {
		return answerError(a)
	}
	return copyFile(dst, dstPath)
}

// export is convert with another export filter than .docx's.
func (in *instance) export(ctx context.Context, src, dst string, filters []string, filter string) (answer, error) {
	if err := in.req.Encode(map[string]any{"in": src, "out": dst, "filters": filters, "export": filter}); err != nil {
		return answer{}, err
	}
	a, err := in.read(ctx)
	if err == nil && !a.OK && (a.Kind == "crash" || in.isDead()) {
		err = fmt.Errorf("%s", a.Error)
	}
	return a, err
}
