package pipeline

import (
	"context"
	"io"
	"os"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/segment"
)

// wantsBilingual: the job asked for a bilingual document and this server
// can compose one; the render then keeps each translated unit it writes in
// a queue (spilled to a file past its budget) for a second render.
func (r *run) wantsBilingual() bool {
	return r.j.Bilingual == job.PDFRequested && r.p.Bilingual != nil
}

// bilingual makes the job's bilingual document from the same read, once
// the output is written: the translated units kept by the render are
// rendered again without layout, and the composer sets the source beside
// that translation and lays the whole out as the output is laid out. It
// is stored beside the output before the job completes, so job.completed
// can carry its bilingual_url. As for the PDF, a failure does not fail the
// translation: the job completes with a warning and no bilingual_url. Only
// a cancelled context is returned, for the pass to run again.
func (r *run) bilingual(ctx context.Context, src ports.Blob, doc ports.Source, kept *unitQueue) (job.PDFState, string, error) {
	if r.j.Bilingual != job.PDFRequested {
		return "", "", nil
	}
	if r.p.Bilingual == nil {
		return job.PDFFailed, "no bilingual document was made: this server cannot compose one", nil
	}
	err := r.composeBilingual(ctx, src, doc, kept)
	if ctx.Err() != nil {
		return "", "", ctx.Err()
	}
	if err != nil {
		r.p.log().Warn("bilingual document failed", "job_id", r.j.ID, "err", err)
		return job.PDFFailed, "no bilingual document was made: " + err.Error(), nil
	}
	return job.PDFReady, "", nil
}

func (r *run) composeBilingual(ctx context.Context, src ports.Blob, doc ports.Source, kept *unitQueue) error {
	f, err := os.CreateTemp(r.p.SpoolDir, "translated-*.docx")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	next := func() (*segment.Unit, error) {
		u, err := kept.pop(ctx)
		if err != nil {
			return nil, err
		}
		return &u, nil
	}
	if _, err := doc.Render(ctx, next, ports.LayoutRequest{SourceLang: r.source.Code}, f); err != nil {
		return err
	}
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if _, err := src.Seek(0, io.SeekStart); err != nil {
		return err
	}
	translated := fileBlob{File: f, size: st.Size()}
	return r.p.write(ctx, job.BilingualKey(r.j), func(w io.Writer) error {
		_, err := r.p.Bilingual.Bilingual(ctx, src, translated, layoutRequest(r.j, r.source.Code), w)
		return err
	})
}

// fileBlob is a spool file read as a ports.Blob.
type fileBlob struct {
	*os.File
	size int64
}

func (b fileBlob) Size() int64 { return b.size }
