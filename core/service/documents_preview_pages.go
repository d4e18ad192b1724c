package service

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strconv"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// Sides of a preview.
const (
	PreviewOriginal    = "original"
	PreviewTranslation = "translation"
)

// PreviewMaxPages bounds how many pages a preview renders.
const PreviewMaxPages = 20

// PreviewPages renders one side of a completed job to page images, once,
// while its download window is open, and returns how many pages there are.
// The images live with the job's files and are deleted with them.
func (s *Documents) PreviewPages(ctx context.Context, c *Caller, id, side string) (int, error) {
	j, err := s.previewable(ctx, c, id, side)
	if err != nil {
		return 0, err
	}
	defer s.renderingPreview.lock(id + "/" + side)()
	if n, err := s.pageCount(ctx, j, side); err == nil {
		return n, nil
	}
	// The pages are of the revision read; one saved meanwhile is read
	// instead, and the pages stored with it.
	var b ports.Blob
	var ext string
	switch {
	case side == PreviewOriginal:
		b, err = s.Blobs.Open(ctx, job.InputKey(id))
		ext = j.Format
	case s.PDF != nil:
		// The translation's pages come from its PDF download, rendered
		// once for both.
		b, j, err = s.translationPDF(ctx, j)
		ext = "pdf"
	default:
		b, j, err = openRevisionFile(ctx, s.Jobs, s.Blobs, j, job.OutputKey)
		ext = "docx"
	}
	if errors.Is(err, ports.ErrNotFound) {
		return 0, fail(KindGone, "the %s of job %s is no longer stored", side, id)
	}
	if err != nil {
		return 0, err
	}
	defer b.Close()
	pages, err := s.Pages.RenderPages(ports.WithAccount(ctx, j.AccountID), b, ext, PreviewMaxPages)
	if err != nil {
		return 0, &Error{Kind: KindUnavailable, Message: "the preview could not be rendered: " + err.Error(), Err: err}
	}
	for i, p := range pages {
		if _, err := s.Blobs.Put(ctx, job.PreviewKey(j, side, strconv.Itoa(i+1)+".png"), bytes.NewReader(p)); err != nil {
			return 0, err
		}
	}
	if _, err := s.Blobs.Put(ctx, job.PreviewKey(j, side, "count"), bytes.NewReader([]byte(strconv.Itoa(len(pages))))); err != nil {
		return 0, err
	}
	return len(pages), nil
}

func (s *Documents) previewable(ctx context.Context, c *Caller, id, side string) (*job.Job, error) {
	if s.Pages == nil {
		return nil, fail(KindUnavailable, "previews are not available on this server")
	}
	if side != PreviewOriginal && side != PreviewTranslation {
		return nil, fail(KindNotFound, "no such preview")
	}
	j, err := s.job(ctx, c, id)
	if err != nil {
		return nil, err
	}
	switch j.Download(s.Clock.Now(), s.Config.DownloadTTL) {
	case job.DownloadNotReady:
		return nil, fail(KindNotFound, "job %s is %s: the preview is available once the job is completed", id, j.Status)
	case job.DownloadExpired:
		return nil, fail(KindGone, "the files of job %s were deleted at the end of the download window", id)
	}
	return j, nil
}

func (s *Documents) pageCount(ctx context.Context, j *job.Job, side string) (int, error) {
	b, err := s.Blobs.Open(ctx, job.PreviewKey(j, side, "count"))
	if err != nil {
		return 0, err
	}
	defer b.Close()
	raw, err := io.ReadAll(b)
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(string(raw))
}
