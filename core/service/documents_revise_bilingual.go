package service

import (
	"bytes"
	"context"
	"errors"
	"io"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/output"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/segment"
)

// rebuildBilingual remakes, for the revision rev, the bilingual document
// of a job that has one, so it shows the edits as the download does: doc's
// translation rendered without layout, set beside the source and laid out
// as the pass lays it out. As in the pass, a failure does not stop the
// revision: it is left without a bilingual document (failed) and says why.
func (s *Documents) rebuildBilingual(ctx context.Context, rev *job.Job, doc *segment.Document) (job.PDFState, string) {
	if rev.Bilingual != job.PDFReady {
		return rev.Bilingual, ""
	}
	if s.Bilingual == nil {
		return job.PDFFailed, "the bilingual document was not made again: this server cannot compose one"
	}
	if err := s.composeBilingual(ctx, rev, doc); err != nil {
		return job.PDFFailed, "the bilingual document was not made again: " + err.Error()
	}
	return job.PDFReady, ""
}

func (s *Documents) composeBilingual(ctx context.Context, rev *job.Job, doc *segment.Document) error {
	src, err := s.Blobs.Open(ctx, job.SourceKey(rev.ID, rev.Format))
	if errors.Is(err, ports.ErrNotFound) {
		return errors.New("the source document is no longer stored")
	}
	if err != nil {
		return err
	}
	defer src.Close()
	source := bilingualMeta(rev).SourceLang
	var translated bytes.Buffer
	if _, err := output.Render(ctx, s.Docs, src, doc, ports.LayoutRequest{SourceLang: source}, &translated); err != nil {
		return err
	}
	if _, err := src.Seek(0, io.SeekStart); err != nil {
		return err
	}
	req := ports.LayoutRequest{SourceLang: source, TargetLang: rev.TargetLang}
	return output.Write(ctx, s.Blobs, job.BilingualKey(rev), func(w io.Writer) error {
		_, err := s.Bilingual.Bilingual(ctx, src, output.NewBytes(translated.Bytes()), req, w)
		return err
	})
}
