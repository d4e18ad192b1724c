package pool

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// ColdConvert converts one document with a one-shot `soffice --convert-to`
// and a fresh profile: the slow path the pool exists to avoid, kept for
// comparison and as the retry after a warm crash. It cannot check which
// import filter LibreOffice picked, so callers sniff the content first.
func ColdConvert(ctx context.Context, cfg Config, k Kind, src io.Reader, dst io.Writer) error {
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
	if err := writeFile(in, src); err != nil {
		return err
	}
	out := filepath.Join(work, "in.docx")
	if err := coldConvert(ctx, cfg, work, in, out); err != nil {
		if ctx.Err() != nil {
			return &Error{Reason: TimedOut, Detail: err.Error()}
		}
		return &Error{Reason: Corrupt, Detail: err.Error()}
	}
	return copyFile(dst, out)
}

// coldConvert runs soffice --convert-to on src, with its profile in a new
// directory under work, and moves the result to dst.
func coldConvert(ctx context.Context, cfg Config, work, src, dst string) error {
	dir, err := os.MkdirTemp(work, "cold-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	profile := (&url.URL{Scheme: "file", Path: filepath.Join(dir, "profile")}).String()
	if err := writeProfile(filepath.Join(dir, "profile")); err != nil {
		return err
	}
	ipc := ipcSocket(profile)
	defer os.Remove(ipc)
	if err := os.WriteFile(filepath.Join(dir, socketsFile), []byte(ipc), 0o600); err != nil {
		return err
	}
	outdir := filepath.Join(dir, "out")
	log := &tailBuffer{max: 16 << 10}
	o, err := startOffice(cfg.officeBin, []string{"-env:UserInstallation=" + profile,
		"--headless", "--invisible", "--nologo", "--norestore", "--nolockcheck",
		"--convert-to", "docx:MS Word 2007 XML", "--outdir", outdir, src},
		[]string{"TMPDIR=" + dir}, log, !cfg.NoNetNamespace)
	if err != nil {
		return err
	}
	select {
	case <-o.done:
	case <-ctx.Done():
		o.stop()
		return ctx.Err()
	}
	produced := filepath.Join(outdir, strings.TrimSuffix(filepath.Base(src), filepath.Ext(src))+".docx")
	if _, serr := os.Stat(produced); serr != nil {
		return fmt.Errorf("soffice --convert-to produced nothing (exit %v): %s", o.err, strings.TrimSpace(log.String()))
	}
	return os.Rename(produced, dst)
}
