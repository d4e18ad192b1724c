package pool

import (
	"context"
	"io"
	"os"
	"path/filepath"
)

// coldConvertDoc converts one document on the cold path alone (see
// coldConvert), as the pool's retry after a crash would, for the tests and
// benchmarks that compare it with the warm path.
func coldConvertDoc(ctx context.Context, cfg Config, k Kind, src io.Reader, dst io.Writer) error {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	work, err := newWorkDir(cfg.TempDir)
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	in := filepath.Join(work, "in."+k.Ext)
	if _, err := writeSource(in, k, src); err != nil {
		return err
	}
	out := filepath.Join(work, "in.docx")
	if err := coldConvert(ctx, cfg, work, in, out, "docx:MS Word 2007 XML"); err != nil {
		if ctx.Err() != nil {
			return &Error{Reason: TimedOut, Detail: err.Error()}
		}
		return &Error{Reason: Corrupt, Detail: err.Error()}
	}
	return copyFile(dst, out)
}
