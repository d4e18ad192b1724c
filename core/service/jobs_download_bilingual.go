package service

import (
	"context"
	"errors"
	"strings"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// DownloadBilingual opens a completed job's bilingual document (source
// beside translation) under the same window and rules as its output. A
// job submitted without bilingual has none: 404 saying so.
func (s *Jobs) DownloadBilingual(ctx context.Context, c *Caller, id string) (*Download, error) {
	j, err := s.Job(ctx, c, id)
	if err != nil {
		return nil, err
	}
	switch j.Download(s.Clock.Now(), s.Config.DownloadTTL) {
	case job.DownloadNotReady:
		return nil, fail(KindNotFound, "job %s is %s: the bilingual document is available once the job is completed", id, j.Status)
	case job.DownloadExpired:
		s.expireOutput(ctx, j.ID)
		return nil, fail(KindGone, "the files of job %s expired %s after completion and were deleted", id, s.Config.DownloadTTL)
	}
	switch j.Bilingual {
	case "":
		return nil, fail(KindNotFound, "job %s was submitted without bilingual: it has no bilingual document (submit with bilingual=true)", id)
	case job.PDFFailed:
		return nil, fail(KindNotFound, "job %s has no bilingual document: making it failed (see the job's warnings)", id)
	}
	b, j, err := openRevisionFile(ctx, s.Jobs, s.Blobs, j, job.BilingualKey)
	if errors.Is(err, ports.ErrNotFound) {
		return nil, fail(KindGone, "the bilingual document of job %s was deleted", id)
	}
	if err != nil {
		return nil, err
	}
	name := DownloadName(j.OriginalName, j.TargetLang)
	return &Download{Blob: b, Name: strings.TrimSuffix(name, ".docx") + ".bilingual.docx"}, nil
}
