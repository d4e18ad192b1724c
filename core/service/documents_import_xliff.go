package service

import (
	"github.com/dragoman-translate/dragoman/core/ports"

	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/output"
	"github.com/dragoman-translate/dragoman/core/segment"
)

// ImportXLIFF rebuilds a completed job's output from a post-edited XLIFF
// file (the job's own export, edited in a CAT tool): the edited targets go
// through the same assembly (codes repaired and warned as for engines) and
// right-to-left layout as the machine translation, the result replaces
// the output as a new revision downloadable for a fresh window, job.completed
// is announced again with the revision, and the edited segments are stored
// in the account's translation memory as human translations.
func (s *Documents) ImportXLIFF(ctx context.Context, c *Caller, id string, body io.Reader) (*job.Job, error) {
	j, doc, err := s.editable(ctx, c, id)
	if err != nil {
		return nil, err
	}
	if s.Docs == nil {
		return nil, fail(KindUnavailable, "XLIFF post-editing is not configured")
	}
	before := make(map[string]string)
	doc.EachSegment(func(_ *segment.Unit, sg *segment.Segment) { before[sg.ID] = sg.Target })
	meta := bilingualMeta(j)
	if err := s.XLIFF.Import(body, doc, meta); err != nil {
		if errors.Is(err, ports.ErrBilingualTooLarge) {
			return nil, &Error{Kind: KindTooLarge, Message: err.Error(), Err: err}
		}
		if errors.Is(err, ports.ErrBadBilingual) {
			return nil, &Error{Kind: KindUnprocessable, Message: strings.TrimPrefix(err.Error(), ports.ErrBadBilingual.Error()+": "), Err: err}
		}
		return nil, err
	}
	warnings, rtl, err := s.rebuild(ctx, j, doc)
	if err != nil {
		return nil, err
	}
	if err := s.putJSON(ctx, job.SegmentsKey(j.ID), doc); err != nil {
		return nil, err
	}
	now := s.Clock.Now()
	edited := 0
	var entries []ports.MemoryEntry
	doc.EachSegment(func(_ *segment.Unit, sg *segment.Segment) {
		if sg.Target == before[sg.ID] {
			return
		}
		edited++
		entries = append(entries, ports.MemoryEntry{SourceLang: meta.SourceLang, TargetLang: meta.TargetLang, Source: sg.Source, Target: sg.Target, Origin: "human"})
	})
	j, err = s.Jobs.UpdateJob(ctx, j.ID, func(j *job.Job) error {
		if err := j.Revise(now); err != nil {
			return err
		}
		j.Warn(fmt.Sprintf("revision %d: rebuilt from a post-edited XLIFF file (%d segments edited)", j.Revision, edited))
		for _, w := range warnings {
			j.Warn(fmt.Sprintf("revision %d: %s", j.Revision, w))
		}
		if rtl != nil {
			j.RTL = rtl
		}
		return nil
	})
	if errors.Is(err, job.ErrTransition) {
		return nil, fail(KindNotFound, "job %s is no longer completed", id)
	}
	if err != nil {
		return nil, err
	}
	if s.AccountMemory != nil && len(entries) > 0 {
		// The revision stands without them; a failure only loses the reuse.
		_ = s.AccountMemory.PutMemory(ctx, j.AccountID, entries)
	}
	_ = s.settler().Job(ctx, j) // job.completed of the revision; what fails stays due
	return j, nil
}

// rebuild assembles doc into a copy of the job's source and lays it out
// into the job's output key, as the pipeline's stages do.
func (s *Documents) rebuild(ctx context.Context, j *job.Job, doc *segment.Document) ([]string, *job.RTLReport, error) {
	src, err := s.Blobs.Open(ctx, job.SourceKey(j.ID, j.Format))
	if errors.Is(err, ports.ErrNotFound) {
		return nil, nil, fail(KindGone, "the source document of job %s is no longer stored", j.ID)
	}
	if err != nil {
		return nil, nil, err
	}
	defer src.Close()
	b := output.Builder{Blobs: s.Blobs, Docs: s.Docs, Layout: s.Layout}
	req := ports.LayoutRequest{SourceLang: j.DetectedLang, TargetLang: j.TargetLang}
	warnings, rtl, err := b.Build(ctx, src, doc, req, job.OutputKey(j.ID), job.Prefix(j.ID)+"revision.docx")
	if err != nil {
		return nil, nil, fmt.Errorf("rebuild the revision of job %s: %w", j.ID, err)
	}
	// A PDF of the machine translation would now show the wrong text: the
	// next PDF download renders the revision.
	if err := s.Blobs.Delete(ctx, job.PDFKey(j.ID)); err != nil && !errors.Is(err, ports.ErrNotFound) {
		return nil, nil, err
	}
	return warnings, rtl, nil
}

func (s *Documents) putJSON(ctx context.Context, k string, v any) error {
	return output.Write(ctx, s.Blobs, k, func(w io.Writer) error { return json.NewEncoder(w).Encode(v) })
}
