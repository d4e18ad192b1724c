package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/segment"
)

// editable is a completed job of the caller whose files are still stored
// (its download window is open), with its translated segments.
func (s *Documents) editable(ctx context.Context, c *Caller, id string) (*job.Job, *segment.Document, error) {
	j, err := s.job(ctx, c, id)
	if err != nil {
		return nil, nil, err
	}
	switch j.Download(s.Clock.Now(), s.Config.DownloadTTL) {
	case job.DownloadNotReady:
		return nil, nil, fail(KindNotFound, "job %s is %s: its segments can be reviewed, edited and exported as XLIFF once the job is completed", id, j.Status)
	case job.DownloadExpired:
		_ = s.expireOutput(ctx, j.ID) // a failed delete is tried again by the sweep
		return nil, nil, fail(KindGone, "the files of job %s expired %s after completion and were deleted", id, s.Config.DownloadTTL)
	}
	b, j, err := openRevisionFile(ctx, s.Jobs, s.Blobs, j, job.SegmentsKey)
	if errors.Is(err, ports.ErrNotFound) {
		return nil, nil, fail(KindGone, "the segments of job %s are no longer stored (jobs completed before post-editing existed keep none)", id)
	}
	if err != nil {
		return nil, nil, err
	}
	defer b.Close()
	var doc segment.Document
	if err := json.NewDecoder(b).Decode(&doc); err != nil {
		return nil, nil, fmt.Errorf("read the segments of job %s: %w", id, err)
	}
	return j, &doc, nil
}

func bilingualMeta(j *job.Job) ports.BilingualMeta {
	src := j.DetectedLang
	if src == "" {
		src = j.SourceLang
	}
	return ports.BilingualMeta{JobID: j.ID, SourceLang: src, TargetLang: j.TargetLang, Name: j.OriginalName, Warnings: j.ShownWarnings(), Revision: j.Revision}
}
