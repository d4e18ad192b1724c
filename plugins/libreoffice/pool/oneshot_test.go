package pool

import (
	"context"
	"io"
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
	wd, err := newWorkDir(cfg.TempDir, cfg.Instance)
	if err != nil {
		return err
	}
	defer wd.remove()
	work := wd.Path()
	in := filepath.Join(work, "in."+k.Ext)
	if _, err := writeSource(in, k, src); err != nil {
		return err
	}
	out := filepath.Join(work, "in.docx")
	if err := coldConvert(ctx, cfg, limits{newMemoryLimit(cfg.Memory), cfg.CPUFor(0)}, work, in, out, "docx:MS Word 2007 XML"); err != nil {
		if ctx.Err() != nil {
			return &Error{Reason: TimedOut, Detail: err.Error()}
		}
		return &Error{Reason: Corrupt, Detail: err.Error()}
	}
	return copyFile(dst, out)
}
