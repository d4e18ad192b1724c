package service

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/output"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/review"
	"github.com/dragoman-translate/dragoman/core/segment"
)

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
	// The revision's files go to a folder of their own; the job switches to
	// it only if it is still at base, so an edit saved at the same time in
	// another process cannot mix its files with these.
	rev := *j
	rev.Files = job.RevisionFiles(next, nonce())
	folder, written := job.Prefix(j.ID)+rev.Files, false
	defer func() {
		if !written { // refused, failed or lost the race: nobody reads them
			_ = s.Blobs.DeletePrefix(context.WithoutCancel(ctx), folder)
		}
	}()
	warnings, rtl, err := s.rebuild(ctx, &rev, doc)
	if err != nil {
		return nil, err
	}
	pdf, pages, sourcePages := s.remeasure(ctx, &rev, doc)
	document := review.Without(documentFlags(j), review.Pages)
	if f := review.PagesFlag(sourcePages, pages); f != nil {
		document = append(document, *f)
	}
	summary := output.Summarize(doc, document, sourcePages, pages)
	if err := s.putJSON(ctx, job.SegmentsKey(&rev), doc); err != nil {
		return nil, err
	}
	bilingual, bilingualWarning := s.rebuildBilingual(ctx, &rev, doc)
	now := s.Clock.Now()
	var replaced *job.Job
	j, err = s.Jobs.UpdateJob(ctx, j.ID, func(j *job.Job) error {
		if j.Revision != base {
			return stale(j, base)
		}
		old := *j
		if err := j.Revise(now); err != nil {
			return err
		}
		replaced = &old
		j.Files = rev.Files
		j.Warn(fmt.Sprintf("revision %d: %s", j.Revision, how))
		for _, w := range warnings {
			j.Warn(fmt.Sprintf("revision %d: %s", j.Revision, w))
		}
		if bilingualWarning != "" {
			j.Warn(fmt.Sprintf("revision %d: %s", j.Revision, bilingualWarning))
		}
		if rtl != nil {
			j.RTL = rtl
		}
		if pdf {
			j.PDF = job.PDFReady
		}
		j.Bilingual = bilingual
		j.Review = summary
		return nil
	})
	if errors.Is(err, job.ErrTransition) {
		return nil, fail(KindNotFound, "job %s is no longer completed", rev.ID)
	}
	if err != nil {
		return nil, err
	}
	written = true
	s.deleteRevisionFiles(ctx, replaced)
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
// their overflow flags again. Otherwise (and when the rendition fails) the
// revision has no PDF yet and the next PDF download renders it; the flags
// stay as they were.
func (s *Documents) remeasure(ctx context.Context, j *job.Job, doc *segment.Document) (rendered bool, pages, sourcePages int) {
	if j.Review != nil {
		pages, sourcePages = j.Review.Pages, j.Review.SourcePages
	}
	if j.PDF != job.PDFReady && j.PDF != job.PDFRequested || s.PDF == nil {
		return false, pages, sourcePages
	}
	in, err := s.Blobs.Open(ctx, job.OutputKey(j))
	if err != nil {
		return false, pages, sourcePages
	}
	defer in.Close()
	var pdf bytes.Buffer
	if err := s.PDF.RenderPDF(ports.WithAccount(ctx, j.AccountID), "docx", in, &pdf); err != nil {
		return false, pages, sourcePages
	}
	body := bytes.Clone(pdf.Bytes())
	if _, err := s.Blobs.Put(ctx, job.PDFKey(j), &pdf); err != nil {
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

// deleteRevisionFiles deletes the files of the revision a newer one
// replaced. A download that opened them before goes on reading what it
// opened (a local file stays readable once open; S3 serves a GET begun
// before the delete).
func (s *Documents) deleteRevisionFiles(ctx context.Context, old *job.Job) {
	ctx = context.WithoutCancel(ctx)
	keys, previews := job.RevisionKeys(old)
	for _, k := range keys {
		_ = s.Blobs.Delete(ctx, k)
	}
	_ = s.Blobs.DeletePrefix(ctx, previews)
}

// nonce is a random name part: two attempts at one revision never share
// a folder.
func nonce() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
