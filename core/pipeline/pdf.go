package pipeline

import (
	"bytes"
	"context"

	"github.com/dragoman-translate/dragoman/core/job"
)

// renderPDF renders the output of a job that asked for a PDF and stores
// it beside the output, before the job completes, so job.completed can
// carry its pdf_url. A rendition that fails does not fail the
// translation: the job completes with a warning and no pdf_url, and GET
// .../download?format=pdf tries again on demand. Only a cancelled context
// or an output that cannot be read is returned, for the stage to run
// again.
//
// The PDF's bytes come back too, for the review to measure (nil when none
// was rendered).
func (p *Pipeline) renderPDF(ctx context.Context, j *job.Job) (job.PDFState, string, []byte, error) {
	if j.PDF != job.PDFRequested {
		return "", "", nil, nil
	}
	if p.PDF == nil {
		return job.PDFFailed, "no PDF was rendered: this server has no PDF renderer (the LibreOffice converter plugin)", nil, nil
	}
	in, err := p.Blobs.Open(ctx, job.OutputKey(j))
	if err != nil {
		return "", "", nil, err
	}
	defer in.Close()
	var pdf bytes.Buffer
	began := p.Clock.Now()
	err = p.PDF.RenderPDF(ctx, "docx", in, &pdf)
	size := pdf.Len()
	rendition := bytes.Clone(pdf.Bytes())
	if err == nil {
		_, err = p.Blobs.Put(ctx, job.PDFKey(j), &pdf)
	}
	p.log().Debug("pdf rendered", "job_id", j.ID, "took", p.Clock.Now().Sub(began), "bytes", size, "err", err)
	if ctx.Err() != nil {
		return "", "", nil, ctx.Err()
	}
	if err != nil {
		p.log().Warn("pdf rendition failed", "job_id", j.ID, "err", err)
		return job.PDFFailed, "no PDF was rendered: " + err.Error(), nil, nil
	}
	return job.PDFReady, "", rendition, nil
}
