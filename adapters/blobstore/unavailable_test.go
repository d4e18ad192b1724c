package blobstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/blobstore/s3test"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// The S3 server goes down: every call fails within seconds (minio-go's
// ten retries took 5 to 8 s) as *ports.Unavailable, whose client message
// names no address; a missing blob is still ErrNotFound once it is back.
func TestStoppedS3IsUnavailable(t *testing.T) {
	srv, stop, err := s3test.Run(s3test.Binary(t), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	host := strings.TrimPrefix(srv.Endpoint, "http://")
	s, err := NewS3(context.Background(), S3Config{Endpoint: host, Region: "us-east-1", Bucket: "outage", PathStyle: true,
		AccessKey: srv.AccessKey, SecretKey: srv.SecretKey, SpoolDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Put(ctx, "jobs/a/input", strings.NewReader("x")); err != nil {
		t.Fatal(err)
	}
	stop()
	for name, call := range map[string]func() error{
		"put":           func() error { _, err := s.Put(ctx, "jobs/b/input", bytes.NewReader(make([]byte, 1<<20))); return err },
		"open":          func() error { _, err := s.Open(ctx, "jobs/a/input"); return err },
		"delete":        func() error { return s.Delete(ctx, "jobs/a/input") },
		"delete prefix": func() error { return s.DeletePrefix(ctx, "jobs/a/") },
		"check":         func() error { return s.Check(ctx) },
	} {
		began := time.Now()
		err := call()
		var u *ports.Unavailable
		if !errors.As(err, &u) || u.Message() != "the document store is not answering" || u.RetryAfter <= 0 {
			t.Errorf("%s with the server down: %v", name, err)
		}
		if took := time.Since(began); took > 3*time.Second {
			t.Errorf("%s took %s to fail", name, took)
		}
	}
}

// A full disk (a 1 MiB tmpfs, mounted in a mount namespace of a child
// test process) fails a Put as *ports.Unavailable, "full", leaves no part
// of the blob, and Check reports it before any write fails.
func TestFullDiskIsUnavailable(t *testing.T) {
	if dir := os.Getenv("DRAGOMAN_FULL_DISK_DIR"); dir != "" {
		fullDiskChild(dir)
		return
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestFullDiskIsUnavailable$", "-test.v")
	cmd.Env = append(os.Environ(), "DRAGOMAN_FULL_DISK_DIR="+dir)
	cmd.SysProcAttr = namespaceForMount()
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "full-disk: ok") {
		t.Fatalf("child: %v\n%s", err, out)
	}
}

// namespaceForMount runs a child in its own mount namespace, inside a
// user namespace when not root, so it may mount a tmpfs of its own.
func namespaceForMount() *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWNS}
	if os.Geteuid() != 0 {
		a.Cloneflags |= syscall.CLONE_NEWUSER
		a.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}}
		a.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}}
	}
	return a
}

func fullDiskChild(dir string) {
	fail := func(format string, args ...any) { fmt.Printf("full-disk: "+format+"\n", args...); os.Exit(1) }
	// Private, so the tmpfs never shows outside this process.
	if err := syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil {
		fail("make mounts private: %v", err)
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=1m"); err != nil {
		fail("mount tmpfs: %v", err)
	}
	l, err := NewLocal(filepath.Join(dir, "documents"))
	if err != nil {
		fail("%v", err)
	}
	var u *ports.Unavailable
	if err := l.Check(ctx); !errors.As(err, &u) || !strings.Contains(u.Message(), "is full") {
		fail("check on a 1 MiB disk: %v", err)
	}
	_, err = l.Put(ctx, "jobs/x/input", bytes.NewReader(make([]byte, 2<<20)))
	if !errors.As(err, &u) || !strings.HasPrefix(u.Message(), "the document store is full") {
		fail("put of 2 MiB on a 1 MiB disk: %v", err)
	}
	if _, err := l.Open(ctx, "jobs/x/input"); !errors.Is(err, ports.ErrNotFound) {
		fail("a part of the blob stayed: %v", err)
	}
	fmt.Println("full-disk: ok")
}
