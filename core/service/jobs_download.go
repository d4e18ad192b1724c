package service

import (
	"context"
	"errors"
	"strings"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
)

// Download is an opened output document.
type Download struct {
	Blob ports.Blob
	Name string // Content-Disposition file name
}

// Download opens a completed job's output while its window is open. After
// the window the output is deleted and the answer is 410.
func (s *Jobs) Download(ctx context.Context, c *Caller, id string) (*Download, error) {
	j, err := s.Job(ctx, c, id)
	if err != nil {
		return nil, err
	}
	switch j.Download(s.Clock.Now(), s.Config.DownloadTTL) {
	case job.DownloadNotReady:
		return nil, fail(KindNotFound, "job %s is %s: the translated file is available once the job is completed", id, j.Status)
	case job.DownloadExpired:
		_ = s.expireOutput(ctx, j.ID) // a failed delete is tried again by the sweep
		return nil, fail(KindGone, "the translated file of job %s expired %s after completion and was deleted", id, s.Config.DownloadTTL)
	}
	b, j, err := openRevisionFile(ctx, s.Jobs, s.Blobs, j, job.OutputKey)
	if errors.Is(err, ports.ErrNotFound) {
		return nil, fail(KindGone, "the translated file of job %s was deleted", id)
	}
	if err != nil {
		return nil, err
	}
	return &Download{Blob: b, Name: DownloadName(j.OriginalName, j.TargetLang)}, nil
}

// DownloadName derives the output file name: "report.docx" translated to
// Spanish becomes "report.es.docx".
func DownloadName(original, target string) string {
	base := stripBidi(original)
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	if base == "" {
		base = "document"
	}
	suffix := strings.ToLower(target)
	if l, err := language.Lookup(target); err == nil {
		suffix = l.Code
	}
	return base + "." + suffix + ".docx"
}
