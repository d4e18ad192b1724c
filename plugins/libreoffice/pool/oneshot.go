package pool

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// coldConvert is the cold path: a one-shot `soffice --convert-to` on src,
// with a fresh profile in a new directory under work, moving the result to
// dst; to is the --convert-to target ("docx:MS Word 2007 XML" or
// "pdf:writer_pdf_Export"). It is the slow path the pool exists to avoid, kept as the retry
// after a warm instance crashed (Config.NoColdRetry turns it off). It
// cannot check which import filter LibreOffice picked, so callers sniff the
// content first.
func coldConvert(ctx context.Context, cfg Config, lim limits, work, src, dst, to string) error {
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
		"--convert-to", to, "--outdir", outdir, src},
		[]string{"TMPDIR=" + dir}, log, !cfg.NoNetNamespace, cfg.sandbox(work), lim.mem)
	if err != nil {
		return err
	}
	defer o.stop()
	w := watchConversion(o.currentPID(), lim.cpu, o.stop)
	select {
	case <-o.done:
	case <-ctx.Done():
		o.stop()
		w.end()
		return ctx.Err()
	}
	if _, _, over := w.end(); over {
		return overCPU(lim.cpu)
	}
	ext, _, _ := strings.Cut(to, ":")
	produced := filepath.Join(outdir, strings.TrimSuffix(filepath.Base(src), filepath.Ext(src))+"."+ext)
	if _, serr := os.Stat(produced); serr != nil {
		return fmt.Errorf("soffice --convert-to produced nothing (exit %v): %s", o.err, strings.TrimSpace(log.String()))
	}
	// soffice can abort while closing a document it has stored whole
	// (oxsdk-Complex01 in Arabic): its output counts when it is complete.
	if ext == "pdf" && !completePDF(produced) {
		return fmt.Errorf("soffice --convert-to left an incomplete PDF (exit %v): %s", o.err, strings.TrimSpace(log.String()))
	}
	return os.Rename(produced, dst)
}

// completePDF reports whether the file ends with a PDF trailer's %%EOF,
// which LibreOffice writes last.
func completePDF(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.Size() < 64 {
		return false
	}
	tail := make([]byte, 64)
	if _, err := f.ReadAt(tail, st.Size()-64); err != nil {
		return false
	}
	return bytes.Contains(tail, []byte("%%EOF"))
}
