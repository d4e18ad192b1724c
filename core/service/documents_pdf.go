package service

import (
	"bytes"
	"context"
	"errors"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// translationPDF opens the stored PDF of a completed job's output,
// rendering and storing it first when there is none, on the job's current
// revision (withRevision), and returns the job it is of. The caller
// checked the account and the download window.
func (s *Documents) translationPDF(ctx context.Context, j *job.Job) (ports.Blob, *job.Job, error) {
	var b ports.Blob
	j, err := withRevision(ctx, s.Jobs, j, func(j *job.Job) (err error) {
		b, err = s.revisionPDF(ctx, j)
		return err
	})
	if errors.Is(err, ports.ErrNotFound) {
		return nil, j, fail(KindGone, "the translated file of job %s was deleted", j.ID)
	}
	return b, j, err
}

// revisionPDF opens the PDF of j's revision, rendering it first when there
// is none; ports.ErrNotFound when the revision's files are gone.
func (s *Documents) revisionPDF(ctx context.Context, j *job.Job) (ports.Blob, error) {
	b, err := s.Blobs.Open(ctx, job.PDFKey(j))
	if err == nil || !errors.Is(err, ports.ErrNotFound) {
		return b, err
	}
	if s.PDF == nil {
		return nil, fail(KindNotFound, "job %s has no PDF, and PDF renditions are not available on this server (they need the LibreOffice converter plugin)", j.ID)
	}
	defer s.renderingPDF.lock(j.ID)()                           // two clicks render once
	if b, err := s.Blobs.Open(ctx, job.PDFKey(j)); err == nil { // rendered while this one waited
		return b, nil
	}
	// The render takes a converter instance in the job's account's turn.
	if err := s.renderPDF(ports.WithAccount(ctx, j.AccountID), j); err != nil {
		if errors.Is(err, ports.ErrNotFound) {
			return nil, err
		}
		return nil, &Error{Kind: KindUnavailable, Message: "the PDF could not be rendered: " + err.Error(), Err: err}
	}
	return s.Blobs.Open(ctx, job.PDFKey(j))
}

// renderPDF renders j's output (.docx) to PDF and stores it at
// job.PDFKey; nothing is stored when rendering fails. A revision saved
// while it rendered has deleted j's files: the PDF is not left behind
// them, and the answer is ports.ErrNotFound, to render the new one.
func (s *Documents) renderPDF(ctx context.Context, j *job.Job) error {
	in, err := s.Blobs.Open(ctx, job.OutputKey(j))
	if err != nil {
		return err
	}
	defer in.Close()
	var pdf bytes.Buffer
	if err := s.PDF.RenderPDF(ctx, "docx", in, &pdf); err != nil {
		return err
	}
	if _, err = s.Blobs.Put(ctx, job.PDFKey(j), &pdf); err != nil {
		return err
	}
	if now, err := s.Jobs.GetJob(ctx, j.ID); err == nil && now.Files != j.Files {
		_ = s.Blobs.Delete(ctx, job.PDFKey(j))
		return ports.ErrNotFound
	}
	return nil
}
