package pool

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// coldConvert is the cold path: a one-shot `soffice --convert-to` on src,
// with a fresh profile in a new directory under work, moving the result to
// dst. It is the slow path the pool exists to avoid, kept as the retry
// after a warm instance crashed (Config.NoColdRetry turns it off). It
// cannot check which import filter LibreOffice picked, so callers sniff the
// content first.
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
		[]string{"TMPDIR=" + dir}, log, !cfg.NoNetNamespace, cfg.sandbox(work))
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
