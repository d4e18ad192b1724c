package pool

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
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
	dir, err := os.MkdirTemp(cfg.TempDir, "dragoman-lo-cold-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, "in."+k.Ext)
	if err := writeFile(in, src); err != nil {
		return err
	}
	out := filepath.Join(dir, "in.docx")
	if err := coldConvert(ctx, cfg, in, out); err != nil {
		if ctx.Err() != nil {
			return &Error{Reason: TimedOut, Detail: err.Error()}
		}
		return &Error{Reason: Corrupt, Detail: err.Error()}
	}
	return copyFile(dst, out)
}

// coldConvert runs soffice --convert-to on src and moves the result to dst.
func coldConvert(ctx context.Context, cfg Config, src, dst string) error {
	dir, err := os.MkdirTemp(cfg.TempDir, "dragoman-lo-cold-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	profile := (&url.URL{Scheme: "file", Path: filepath.Join(dir, "profile")}).String()
	outdir := filepath.Join(dir, "out")
	cmd := exec.Command(cfg.Soffice, "-env:UserInstallation="+profile,
		"--headless", "--invisible", "--nologo", "--norestore", "--nolockcheck",
		"--convert-to", "docx:MS Word 2007 XML", "--outdir", outdir, src)
	cmd.Env = append(os.Environ(), "TMPDIR="+dir)
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-ctx.Done():
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
		waitGroupGone(cmd.Process.Pid)
		os.Remove(ipcSocket(profile))
		return ctx.Err()
	}
	waitGroupGone(cmd.Process.Pid) // anything it left running
	os.Remove(ipcSocket(profile))
	produced := filepath.Join(outdir, strings.TrimSuffix(filepath.Base(src), filepath.Ext(src))+".docx")
	if _, serr := os.Stat(produced); serr != nil {
		return fmt.Errorf("soffice --convert-to produced nothing (exit %v): %s", err, strings.TrimSpace(log.String()))
	}
	return os.Rename(produced, dst)
}
