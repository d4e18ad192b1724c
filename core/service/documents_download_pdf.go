package service

import (
	"context"
	"strings"

	"github.com/dragoman-translate/dragoman/core/job"
)

// DownloadPDF opens the PDF rendition of a completed job's translation
// while its download window is open. A job submitted with pdf=true had it
// rendered by the pipeline; for any other job it is rendered now, once,
// and stored beside the output (deleted with it). Another account's job,
// or one not completed, is 404 as for the .docx; after the window, 410.
func (s *Documents) DownloadPDF(ctx context.Context, c *Caller, id string) (*Download, error) {
	j, err := s.job(ctx, c, id)
	if err != nil {
		return nil, err
	}
	switch j.Download(s.Clock.Now(), s.Config.DownloadTTL) {
	case job.DownloadNotReady:
		return nil, fail(KindNotFound, "job %s is %s: the PDF is available once the job is completed", id, j.Status)
	case job.DownloadExpired:
		_ = s.expireOutput(ctx, j.ID) // a failed delete is tried again by the sweep
		return nil, fail(KindGone, "the translated file of job %s expired %s after completion and was deleted", id, s.Config.DownloadTTL)
	}
	b, j, err := s.translationPDF(ctx, j)
	if err != nil {
		return nil, err
	}
	return &Download{Blob: b, Name: PDFName(j.OriginalName, j.TargetLang)}, nil
}

// PDFName is DownloadName with .pdf: "report.docx" translated to Spanish
// gives "report.es.pdf".
func PDFName(original, target string) string {
	return strings.TrimSuffix(DownloadName(original, target), ".docx") + ".pdf"
}
