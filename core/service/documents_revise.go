package service

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"strings"
	"sync"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/output"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/review"
	"github.com/dragoman-translate/dragoman/core/segment"
)

// revising serialises the revisions of one job within a process: each
// reads the latest segments and writes the next revision. A fixed set of
// locks picked by the job id's hash (two jobs may share one; they only
// wait for each other) keeps memory flat however many jobs are revised.
var revising [64]sync.Mutex

func lockRevisions(id string) func() {
	h := fnv.New32a()
	_, _ = h.Write([]byte(id))
	mu := &revising[h.Sum32()%uint32(len(revising))]
	mu.Lock()
	return mu.Unlock
}

// stale refuses an edit made on a revision the job has left behind.
func stale(j *job.Job, base int) error {
	return &Error{Kind: KindStale, Message: fmt.Sprintf(
		"job %s is at revision %d; this edit was made on revision %d: reload its segments and edit again", j.ID, j.Revision, base)}
}

// revise makes the next revision of a completed job from doc, whose
// segments in edited (by id, with the target each had before) a person
// changed (an edited segment in the API or
// the dashboard, or an XLIFF import; how says which in the job's
// warnings): their flags are checked again, the .docx is rebuilt as the
// pipeline builds it, the PDF rendition re-rendered when the job has one
// and measured again, the review summed up anew, the segments stored, and
// the job completed again (a fresh download window, job.completed with
// the revision); the edits go to the account's memory as human
// translations, so the same sentence is translated the same way next
// time. base is the revision the edits were made on: the job must still
// be at it.
func (s *Documents) revise(ctx context.Context, j *job.Job, doc *segment.Document, edited map[string]string, base int, how string) (*job.Job, error) {
	if s.Docs == nil {
		return nil, fail(KindUnavailable, "editing translations is not configured on this server")
	}
	checker, err := s.checker(ctx, j)
	if err != nil {
		return nil, err
	}
	next := j.Revision + 1
	var entries []ports.MemoryEntry
	meta := bilingualMeta(j)
	for i := range doc.Units {
		u := &doc.Units[i]
		changed := false
		for k := range u.Segments {
			sg := &u.Segments[k]
			if old, ok := edited[sg.ID]; ok {
				changed = true
				sg.Edited, sg.Revised, sg.Notes = true, next, segment.Notes{}
				sg.History = append(sg.History, segment.Replaced{Revision: next, Target: old})
				entries = append(entries, ports.MemoryEntry{SourceLang: meta.SourceLang, TargetLang: meta.TargetLang, Source: sg.Source, Target: sg.Target, Origin: "human"})
			}
		}
		if changed {
			// Notes of the engine (unknown words, repairs) no longer hold for
			// an edited sentence; its neighbours keep theirs.
			keep := make([][]review.Flag, len(u.Segments))
			for k, sg := range u.Segments {
				if _, ok := edited[sg.ID]; !ok {
					keep[k] = sg.Flags
				}
			}
			output.Check(checker, u)
			for k := range u.Segments {
				if keep[k] != nil {
					u.Segments[k].Flags = keep[k]
				}
			}
		}
	}
	warnings, rtl, err := s.rebuild(ctx, j, doc)
	if err != nil {
		return nil, err
	}
	pdf, pages, sourcePages := s.remeasure(ctx, j, doc)
	document := review.Without(documentFlags(j), review.Pages)
	if f := review.PagesFlag(sourcePages, pages); f != nil {
		document = append(document, *f)
	}
	summary := output.Summarize(doc, document, sourcePages, pages)
	if err := s.putJSON(ctx, job.SegmentsKey(j.ID), doc); err != nil {
		return nil, err
	}
	now := s.Clock.Now()
	j, err = s.Jobs.UpdateJob(ctx, j.ID, func(j *job.Job) error {
		if j.Revision != base {
			return stale(j, base)
		}
		if err := j.Revise(now); err != nil {
			return err
		}
		j.Warn(fmt.Sprintf("revision %d: %s", j.Revision, how))
		for _, w := range warnings {
			j.Warn(fmt.Sprintf("revision %d: %s", j.Revision, w))
		}
		if rtl != nil {
			j.RTL = rtl
		}
		if pdf {
			j.PDF = job.PDFReady
		}
		j.Review = summary
		return nil
	})
	if errors.Is(err, job.ErrTransition) {
		return nil, fail(KindNotFound, "job %s is no longer completed", j.ID)
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

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// documentFlags are the review's flags about the whole document so far.
func documentFlags(j *job.Job) []review.Flag {
	if j.Review == nil {
		return nil
	}
	return j.Review.Document
}

// checker is the review's checks for j's edits: the same glossary,
// do-not-translate terms and route as the job's pass.
func (s *Documents) checker(ctx context.Context, j *job.Job) (*review.Checker, error) {
	var dnt []string
	if s.Accounts != nil {
		a, err := s.Accounts.GetAccount(ctx, j.AccountID)
		if err != nil {
			return nil, err
		}
		dnt = a.DoNotTranslate
	}
	rj := output.ReviewJob(j, nil, dnt)
	if j.GlossaryID != "" && s.Glossaries != nil {
		g, err := s.Glossaries.GetGlossary(ctx, j.AccountID, j.GlossaryID)
		switch {
		case err == nil:
			rj = output.ReviewJob(j, g, dnt)
		case !errors.Is(err, ports.ErrNotFound): // a glossary deleted since: its terms are not checked
			return nil, err
		}
	}
	return review.NewChecker(rj), nil
}

// remeasure renders the revision's PDF when the job has a rendition (it
// asked for one), stores it, and measures it as the pass measures the
// machine translation's: the segments cut off by their fixed-size box get
// their overflow flags again. Otherwise the old PDF, now wrong, is deleted
// and the next PDF download renders the revision. A rendition that fails
// leaves the flags as they were.
func (s *Documents) remeasure(ctx context.Context, j *job.Job, doc *segment.Document) (rendered bool, pages, sourcePages int) {
	if j.Review != nil {
		pages, sourcePages = j.Review.Pages, j.Review.SourcePages
	}
	drop := func() { _ = s.Blobs.Delete(ctx, job.PDFKey(j.ID)) }
	if j.PDF != job.PDFReady && j.PDF != job.PDFRequested || s.PDF == nil {
		drop()
		return false, pages, sourcePages
	}
	in, err := s.Blobs.Open(ctx, job.OutputKey(j.ID))
	if err != nil {
		drop()
		return false, pages, sourcePages
	}
	defer in.Close()
	var pdf bytes.Buffer
	if err := s.PDF.RenderPDF(ports.WithAccount(ctx, j.AccountID), "docx", in, &pdf); err != nil {
		drop()
		return false, pages, sourcePages
	}
	body := bytes.Clone(pdf.Bytes())
	if _, err := s.Blobs.Put(ctx, job.PDFKey(j.ID), &pdf); err != nil {
		drop()
		return false, pages, sourcePages
	}
	if s.PDFText == nil {
		return true, pages, sourcePages
	}
	text, err := s.PDFText.PDFText(ctx, bytes.NewReader(body))
	if err != nil {
		return true, pages, sourcePages
	}
	out := review.NewRendition(text)
	var src *review.Rendition
	if b, err := s.Blobs.Open(ctx, job.OriginalTextKey(j.ID)); err == nil {
		var t strings.Builder
		_, err = io.Copy(&t, b)
		b.Close()
		if err == nil {
			src = review.NewRendition(t.String())
		}
	}
	units := make([]*segment.Unit, len(doc.Units))
	for i := range doc.Units {
		units[i] = &doc.Units[i]
	}
	output.MarkOverflow(units, out, src)
	return true, out.Pages, sourcePages
}

// forgetPreview deletes the rendered pages of the translation's preview,
// so the next preview shows the revision.
func (s *Documents) forgetPreview(ctx context.Context, id string) {
	_ = s.Blobs.Delete(ctx, previewKey(id, PreviewTranslation, "count"))
}
