package service

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/segment"
)

// XLIFFFile is an exported XLIFF document.
type XLIFFFile struct {
	Body []byte
	Name string // Content-Disposition file name
}

// editable is a completed job of the caller whose files are still stored
// (its download window is open), with its translated segments.
func (s *Service) editable(ctx context.Context, c *Caller, id string) (*job.Job, *segment.Document, error) {
	if s.XLIFF == nil {
		return nil, nil, fail(KindUnavailable, "XLIFF post-editing is not configured")
	}
	j, err := s.Job(ctx, c, id)
	if err != nil {
		return nil, nil, err
	}
	switch j.Download(s.Clock.Now(), s.Config.DownloadTTL) {
	case job.DownloadNotReady:
		return nil, nil, fail(KindNotFound, "job %s is %s: its segments can be exported as XLIFF once the job is completed", id, j.Status)
	case job.DownloadExpired:
		s.expireOutput(ctx, j.ID)
		return nil, nil, fail(KindGone, "the files of job %s expired %s after completion and were deleted", id, s.Config.DownloadTTL)
	}
	b, err := s.Blobs.Open(ctx, job.SegmentsKey(j.ID))
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
	return ports.BilingualMeta{JobID: j.ID, SourceLang: src, TargetLang: j.TargetLang, Name: j.OriginalName, Warnings: j.Warnings}
}

// ExportXLIFF writes a completed job's segments, source and target, as
// XLIFF 2.1 or (version "1.2") 1.2, while its download window is open.
func (s *Service) ExportXLIFF(ctx context.Context, c *Caller, id, version string) (*XLIFFFile, error) {
	if version != "" && version != "2.1" && version != "1.2" {
		return nil, fail(KindUnprocessable, "version must be 2.1 (the default) or 1.2, not %q", version)
	}
	j, doc, err := s.editable(ctx, c, id)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := s.XLIFF.Export(&b, doc, bilingualMeta(j), version); err != nil {
		return nil, err
	}
	name := DownloadName(j.OriginalName, j.TargetLang)
	name = name[:len(name)-len(".docx")] + ".xlf"
	return &XLIFFFile{Body: b.Bytes(), Name: name}, nil
}
