package service

import (
	"bufio"
	"context"
	"errors"
	"io"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/plugins/sdk/docformat"
)

// Upload is a received document, stored but not yet a job. Submitting an
// upload is one use case in steps, because a multipart body's options may
// follow its file: Accounts.CheckQuota, then Receive for the file, then
// Queue (or Discard when the request fails in between).
type Upload struct {
	ID      string
	Key     string
	Format  docformat.Format
	Size    int64
	fromURL bool
}

// Receive decides a document's type from its first bytes and streams it
// to the blob store, refusing more than MaxUpload bytes.
func (s *Jobs) Receive(ctx context.Context, body io.Reader, fromURL bool) (*Upload, error) {
	formatErr := KindUnprocessable
	if fromURL {
		formatErr = KindBadURL
	}
	br := bufio.NewReaderSize(body, 8<<10)
	head, _ := br.Peek(8 << 10)
	if len(head) == 0 {
		return nil, fail(formatErr, "the document is empty")
	}
	format, err := docformat.Sniff(head)
	if err != nil {
		return nil, &Error{Kind: formatErr, Message: err.Error(), Err: err}
	}
	id := s.NewID()
	up := &Upload{ID: id, Key: job.InputKey(id), Format: format, fromURL: fromURL}
	n, err := s.Blobs.Put(ctx, up.Key, io.LimitReader(br, s.Config.MaxUpload+1))
	if err == nil && n > s.Config.MaxUpload {
		err = fail(KindTooLarge, "the document is larger than %d MB", s.Config.MaxUpload>>20)
	}
	if err != nil {
		s.Discard(ctx, up)
		var tl TooLarge
		if errors.As(err, &tl) && tl.TooLarge() {
			return nil, fail(KindTooLarge, "the document is larger than %d MB", s.Config.MaxUpload>>20)
		}
		return nil, err
	}
	up.Size = n
	return up, nil
}

// Discard deletes a received document that will not become a job.
func (s *Jobs) Discard(ctx context.Context, up *Upload) {
	_ = s.Blobs.DeletePrefix(context.WithoutCancel(ctx), job.Prefix(up.ID))
}

// Queue turns an uploaded document into a pending job once the form's
// options are known (they may follow the file in a multipart body). It
// validates the options and the pair; the quota is checked before the
// upload is read (CheckQuota), and not again. On any error the document
// is deleted.
func (s *Jobs) Queue(ctx context.Context, c *Caller, up *Upload, r SubmitRequest) (*Accepted, error) {
	opts, err := ParseOptions(r.TargetLang, r.SourceLang, r.Mode)
	if err == nil {
		err = s.checkPair(ctx, opts)
	}
	if err == nil {
		opts.GlossaryID, err = s.checkGlossary(ctx, c, opts, r.GlossaryID)
	}
	if err != nil {
		s.Discard(ctx, up)
		return nil, err
	}
	return s.queue(ctx, c, up, r, opts)
}
