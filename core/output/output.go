// Package output writes a job's output document: a document engine's
// render of the source with its translated units, stored as it is
// written. The pipeline's pass renders while units are being translated;
// a revision rebuilt from a post-edited XLIFF file (core/service) renders
// a stored translation, through Rebuild.
package output

import (
	"bytes"
	"context"
	"errors"
	"io"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/segment"
)

// Rebuild renders src with doc's units (in the order the engine reads
// them, as stored) laid out for req, and stores the result under key.
func Rebuild(ctx context.Context, blobs ports.BlobStore, docs ports.DocumentEngine, src ports.Blob, doc *segment.Document, req ports.LayoutRequest, key string) (*ports.Rendered, error) {
	var r *ports.Rendered
	err := Write(ctx, blobs, key, func(w io.Writer) (err error) {
		r, err = Render(ctx, docs, src, doc, req, w)
		return err
	})
	return r, err
}

// Render writes src with doc's units laid out for req to w (an empty
// req.TargetLang: without layout, as a bilingual document takes it).
func Render(ctx context.Context, docs ports.DocumentEngine, src ports.Blob, doc *segment.Document, req ports.LayoutRequest, w io.Writer) (*ports.Rendered, error) {
	source, err := docs.Read(ctx, src, func([]segment.Unit) error { return nil })
	if err != nil {
		return nil, err
	}
	i := 0
	next := func() (*segment.Unit, error) {
		if i == len(doc.Units) {
			return nil, io.EOF
		}
		i++
		return &doc.Units[i-1], nil
	}
	return source.Render(ctx, next, req, w)
}

// Bytes is a document held in memory, read as a stored one.
type Bytes struct{ *bytes.Reader }

// NewBytes reads b as a ports.Blob.
func NewBytes(b []byte) Bytes { return Bytes{bytes.NewReader(b)} }

// Close does nothing: there is nothing to release.
func (Bytes) Close() error { return nil }

// Write stores what produce writes under key k. produce runs concurrently
// with the store and has returned when Write does.
func Write(ctx context.Context, blobs ports.BlobStore, k string, produce func(w io.Writer) error) error {
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := produce(pw)
		pw.CloseWithError(err)
		done <- err
	}()
	_, err := blobs.Put(ctx, k, pr)
	pr.CloseWithError(errors.New("store stopped reading"))
	if perr := <-done; perr != nil {
		return perr
	}
	return err
}
