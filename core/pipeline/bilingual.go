package pipeline

import (
	"context"

	"github.com/dragoman-translate/dragoman/core/job"
)

// renderBilingual builds the bilingual document of a job that asked for
// one (source beside translation, laid out as the output is) and stores it
// beside the output before the job completes, so job.completed can carry
// its bilingual_url. As for the PDF, a failure does not fail the
// translation: the job completes with a warning and no bilingual_url. Only
// a cancelled context or a file that cannot be read is returned, for the
// stage to run again.
func (p *Pipeline) renderBilingual(ctx context.Context, j *job.Job) (job.PDFState, string, error) {
	if j.Bilingual != job.PDFRequested {
		return "", "", nil
	}
	if p.Bilingual == nil {
		return job.PDFFailed, "no bilingual document was made: this server cannot compose one", nil
	}
	doc, err := p.getDoc(ctx, job.SegmentsKey(j.ID))
	if err != nil {
		return "", "", err
	}
	src, err := p.Blobs.Open(ctx, sourceKey(j))
	if err != nil {
		return "", "", err
	}
	defer src.Close()
	_, err = p.output().Bilingual(ctx, p.Bilingual, src, doc, layoutRequest(j), job.BilingualKey(j.ID), key(j, "bilingual-assembled.docx"))
	if ctx.Err() != nil {
		return "", "", ctx.Err()
	}
	if err != nil {
		p.log().Warn("bilingual document failed", "job_id", j.ID, "err", err)
		return job.PDFFailed, "no bilingual document was made: " + err.Error(), nil
	}
	return job.PDFReady, "", nil
}
