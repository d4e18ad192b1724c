package bilingual

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// Layout lays a whole document out for a language pair (rtl.Layout.Apply).
type Layout interface {
	Apply(ctx context.Context, src ports.Blob, req ports.LayoutRequest, out io.Writer) (*job.RTLReport, error)
}

// Bilingual composes src beside its translation (Compose), lays the
// result out with c.Layout as the target-only output is laid out (nil:
// no layout), and sets the source column back to the source's own
// directions (KeepSourceDirection). The steps between go through
// temporary files in c.Dir (the system's when empty), removed on return.
func (c Composer) Bilingual(ctx context.Context, src, translated ports.Blob, req ports.LayoutRequest, out io.Writer) (*job.RTLReport, error) {
	composed, err := c.temp(func(w io.Writer) error { return c.Compose(ctx, src, translated, w) })
	if err != nil {
		return nil, fmt.Errorf("compose: %w", err)
	}
	defer composed.remove()
	laidOut, rep := composed, (*job.RTLReport)(nil)
	if c.Layout != nil {
		laidOut, err = c.temp(func(w io.Writer) (err error) {
			rep, err = c.Layout.Apply(ctx, composed, req, w)
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("lay out: %w", err)
		}
		defer laidOut.remove()
	}
	if _, err := laidOut.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	return rep, c.KeepSourceDirection(ctx, src, laidOut, out)
}

// tempBlob is a temporary file read as a ports.Blob.
type tempBlob struct {
	*os.File
	size int64
}

func (b *tempBlob) Size() int64 { return b.size }

func (b *tempBlob) remove() {
	b.Close()
	os.Remove(b.Name())
}

// temp writes a temporary file with write and opens it for reading.
func (c Composer) temp(write func(io.Writer) error) (*tempBlob, error) {
	f, err := os.CreateTemp(c.Dir, "bilingual-*.docx")
	if err != nil {
		return nil, err
	}
	b := &tempBlob{File: f}
	if err := write(f); err != nil {
		b.remove()
		return nil, err
	}
	st, err := f.Stat()
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err != nil {
		b.remove()
		return nil, err
	}
	b.size = st.Size()
	return b, nil
}
