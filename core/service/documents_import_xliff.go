package service

import (
	"strconv"

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
// file (the job's own export, edited in a CAT tool) as a new revision
// (revise): the edited targets go through the same assembly and
// right-to-left layout as the machine translation and the review's checks.
// A file exported before the job's latest revision must not undo what was
// edited since: a segment edited after the export keeps its edit when the
// file left it as exported (or agrees with the edit); one the file changed
// too is a conflict, and the import is refused (KindStale) naming them. ifMatch, when set, is the revision the
// caller expects the job to be at.
func (s *Documents) ImportXLIFF(ctx context.Context, c *Caller, id string, body io.Reader, ifMatch *int) (*job.Job, error) {
	if s.XLIFF == nil {
		return nil, fail(KindUnavailable, "XLIFF post-editing is not configured")
	}
	defer s.revising.lock(id)()
	j, doc, err := s.editable(ctx, c, id)
	if err != nil {
		return nil, err
	}
	if ifMatch != nil && *ifMatch != j.Revision {
		return nil, stale(j, *ifMatch)
	}
	type was struct {
		target  string
		revised int
	}
	before := make(map[string]was)
	doc.EachSegment(func(_ *segment.Unit, sg *segment.Segment) { before[sg.ID] = was{sg.Target, sg.Revised} })
	meta := bilingualMeta(j)
	if err := s.XLIFF.Import(body, doc, &meta); err != nil {
		if errors.Is(err, ports.ErrBilingualTooLarge) {
			return nil, &Error{Kind: KindTooLarge, Message: err.Error(), Err: err}
		}
		if errors.Is(err, ports.ErrBadBilingual) {
			return nil, &Error{Kind: KindUnprocessable, Message: strings.TrimPrefix(err.Error(), ports.ErrBadBilingual.Error()+": "), Err: err}
		}
		return nil, err
	}
	edited := map[string]string{}
	var lost []string
	n := 0
	doc.EachSegment(func(_ *segment.Unit, sg *segment.Segment) {
		n++
		b := before[sg.ID]
		if sg.Target == b.target {
			return
		}
		if b.revised > meta.Revision { // edited after the export
			if sg.Target != sg.TargetAt(meta.Revision) {
				lost = append(lost, strconv.Itoa(n)) // changed in the file too
			}
			sg.Target = b.target // as exported: the later edit stays
			return
		}
		edited[sg.ID] = b.target
	})
	if len(lost) > 0 {
		return nil, &Error{Kind: KindStale, Message: fmt.Sprintf(
			"this XLIFF file was exported from revision %d of job %s, which is now at revision %d; importing it would undo the later edits of segment%s %s: export the XLIFF again and redo your changes there",
			meta.Revision, j.ID, j.Revision, map[bool]string{true: "s"}[len(lost) > 1], strings.Join(first(lost, 10), ", "))}
	}
	return s.revise(ctx, j, doc, edited, j.Revision, fmt.Sprintf("rebuilt from a post-edited XLIFF file (%s edited)", plural(len(edited), "sentence")))
}

func first(s []string, n int) []string {
	if len(s) > n {
		return append(s[:n:n], fmt.Sprintf("and %d more", len(s)-n))
	}
	return s
}

// rebuild renders the job's source with doc's translation into the job's
// output key, as the pipeline's pass does.
func (s *Documents) rebuild(ctx context.Context, j *job.Job, doc *segment.Document) ([]string, *job.RTLReport, error) {
	src, err := s.Blobs.Open(ctx, job.SourceKey(j.ID, j.Format))
	if errors.Is(err, ports.ErrNotFound) {
		return nil, nil, fail(KindGone, "the source document of job %s is no longer stored", j.ID)
	}
	if err != nil {
		return nil, nil, err
	}
	defer src.Close()
	req := ports.LayoutRequest{SourceLang: j.DetectedLang, TargetLang: j.TargetLang}
	r, err := output.Rebuild(ctx, s.Blobs, s.Docs, src, doc, req, job.OutputKey(j))
	if err != nil {
		return nil, nil, fmt.Errorf("rebuild the revision of job %s: %w", j.ID, err)
	}
	return r.Warnings, r.RTL, nil
}

func (s *Documents) putJSON(ctx context.Context, k string, v any) error {
	return output.Write(ctx, s.Blobs, k, func(w io.Writer) error { return json.NewEncoder(w).Encode(v) })
}
