package blobstore

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/dragoman-translate/dragoman/core/ports"
)

var ctx = context.Background()

func newLocal(t testing.TB) *Local {
	t.Helper()
	l, err := NewLocal(filepath.Join(t.TempDir(), "blobs"))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func readAll(t *testing.T, l *Local, key string) []byte {
	t.Helper()
	b, err := l.Open(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	data, err := io.ReadAll(b)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(data)) != b.Size() {
		t.Fatalf("size %d, read %d", b.Size(), len(data))
	}
	return data
}

// files lists every file under the root as slash paths, temp files included.
func files(t *testing.T, l *Local) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(l.Root(), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(l.Root(), p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(out)
	return out
}

func TestPutOpen(t *testing.T) {
	l := newLocal(t)
	data := make([]byte, 3<<20+17)
	rand.Read(data)
	n, err := l.Put(ctx, "jobs/j1/input", bytes.NewReader(data))
	if err != nil || n != int64(len(data)) {
		t.Fatalf("put: %d %v", n, err)
	}
	if got := readAll(t, l, "jobs/j1/input"); sha256.Sum256(got) != sha256.Sum256(data) {
		t.Fatal("content differs")
	}
	b, err := l.Open(ctx, "jobs/j1/input")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	// ReaderAt and Seeker work (zip readers need both).
	part := make([]byte, 10)
	if _, err := b.ReadAt(part, 1<<20); err != nil || !bytes.Equal(part, data[1<<20:1<<20+10]) {
		t.Fatalf("ReadAt: %v", err)
	}
	if off, err := b.Seek(-5, io.SeekEnd); err != nil || off != int64(len(data)-5) {
		t.Fatalf("Seek: %d %v", off, err)
	}
	// Replacing keeps readers of the old blob whole and leaves no temp files.
	if _, err := l.Put(ctx, "jobs/j1/input", strings.NewReader("new")); err != nil {
		t.Fatal(err)
	}
	if got := string(readAll(t, l, "jobs/j1/input")); got != "new" {
		t.Fatalf("after replace: %q", got)
	}
	rest, _ := io.ReadAll(b)
	if !bytes.Equal(rest, data[len(data)-5:]) {
		t.Fatal("open blob changed under its reader")
	}
	if got := files(t, l); len(got) != 1 || got[0] != "jobs/j1/input" {
		t.Fatalf("files %v", got)
	}
	if _, err := l.Put(ctx, "empty", bytes.NewReader(nil)); err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, l, "empty"); len(got) != 0 {
		t.Fatal("empty blob not empty")
	}
	if _, err := l.Open(ctx, "jobs/j2/input"); !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("missing: %v", err)
	}
	if _, err := l.Open(ctx, "jobs/j1"); err == nil {
		t.Fatal("opened a folder as a blob")
	}
}

func TestBadKeys(t *testing.T) {
	l := newLocal(t)
	// A file just outside the root that traversal would reach.
	outside := filepath.Join(filepath.Dir(l.Root()), "secret")
	os.WriteFile(outside, []byte("x"), 0o600)
	for _, key := range []string{
		"", "/etc/passwd", "../secret", "jobs/../../secret", "jobs/./x", "jobs//x", "jobs/x/",
		"..", ".", `jobs\..\..\secret`, "a\x00b", ".tmp-123", "jobs/.tmp-x",
	} {
		if _, err := l.Put(ctx, key, strings.NewReader("x")); !errors.Is(err, ErrBadKey) {
			t.Errorf("Put %q: %v", key, err)
		}
		if _, err := l.Open(ctx, key); !errors.Is(err, ErrBadKey) {
			t.Errorf("Open %q: %v", key, err)
		}
		if err := l.Delete(ctx, key); !errors.Is(err, ErrBadKey) {
			t.Errorf("Delete %q: %v", key, err)
		}
	}
	for _, prefix := range []string{"../", "/etc", "jobs/../../", `a\b`} {
		if err := l.DeletePrefix(ctx, prefix); !errors.Is(err, ErrBadKey) {
			t.Errorf("DeletePrefix %q: %v", prefix, err)
		}
	}
	if b, err := os.ReadFile(outside); err != nil || string(b) != "x" {
		t.Fatal("file outside the root touched")
	}
	if got := files(t, l); len(got) != 0 {
		t.Fatalf("files written: %v", got)
	}
}

func TestDelete(t *testing.T) {
	l := newLocal(t)
	for _, k := range []string{"jobs/1/input", "jobs/1/output", "jobs/12/input", "jobs/2/input", "jobsx", "other/1"} {
		if _, err := l.Put(ctx, k, strings.NewReader(k)); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Delete(ctx, "jobs/2/input"); err != nil {
		t.Fatal(err)
	}
	if err := l.Delete(ctx, "jobs/2/input"); err != nil {
		t.Fatalf("repeated delete: %v", err)
	}
	if _, err := os.Stat(filepath.Join(l.Root(), "jobs", "2")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("emptied folder kept")
	}
	if err := l.DeletePrefix(ctx, "jobs/1/"); err != nil {
		t.Fatal(err)
	}
	want := []string{"jobs/12/input", "jobsx", "other/1"}
	if got := files(t, l); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("after DeletePrefix jobs/1/: %v", got)
	}
	// A plain string prefix crosses folder names.
	if err := l.DeletePrefix(ctx, "jobs"); err != nil {
		t.Fatal(err)
	}
	if got := files(t, l); strings.Join(got, ",") != "other/1" {
		t.Fatalf("after DeletePrefix jobs: %v", got)
	}
	if err := l.DeletePrefix(ctx, "nothing/here/"); err != nil {
		t.Fatal(err)
	}
	if err := l.DeletePrefix(ctx, ""); err != nil {
		t.Fatal(err)
	}
	if got := files(t, l); len(got) != 0 {
		t.Fatalf("after DeletePrefix \"\": %v", got)
	}
	if entries, _ := os.ReadDir(l.Root()); len(entries) != 0 {
		t.Fatalf("folders left: %v", entries)
	}
}

// failingReader fails after some bytes, like a dropped upload.
type failingReader struct{ n int }

func (f *failingReader) Read(p []byte) (int, error) {
	if f.n <= 0 {
		return 0, errors.New("connection reset")
	}
	n := min(len(p), f.n)
	f.n -= n
	return n, nil
}

func TestPutFailureKeepsOldBlob(t *testing.T) {
	l := newLocal(t)
	if _, err := l.Put(ctx, "k", strings.NewReader("old")); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Put(ctx, "k", &failingReader{n: 100000}); err == nil {
		t.Fatal("failed upload reported success")
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := l.Put(cctx, "k", strings.NewReader("new")); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled put: %v", err)
	}
	if got := string(readAll(t, l, "k")); got != "old" {
		t.Fatalf("blob %q after failed puts", got)
	}
	if got := files(t, l); len(got) != 1 {
		t.Fatalf("temp files left: %v", got)
	}
}

// TestConcurrent: readers never see a partial blob while writers replace
// it, and puts survive concurrent deletes of sibling keys.
func TestConcurrent(t *testing.T) {
	l := newLocal(t)
	payload := func(i int) []byte { return bytes.Repeat([]byte{byte('a' + i%26)}, 64<<10) }
	if _, err := l.Put(ctx, "jobs/x/output", bytes.NewReader(payload(0))); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(2)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				if _, err := l.Put(ctx, "jobs/x/output", bytes.NewReader(payload(w*20+i))); err != nil {
					t.Error(err)
				}
				key := fmt.Sprintf("jobs/y/%d-%d", w, i)
				if _, err := l.Put(ctx, key, strings.NewReader("v")); err != nil {
					t.Error(err)
				}
				if err := l.Delete(ctx, key); err != nil {
					t.Error(err)
				}
			}
		}(w)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				b, err := l.Open(ctx, "jobs/x/output")
				if err != nil {
					t.Error(err)
					return
				}
				data, _ := io.ReadAll(b)
				b.Close()
				if len(data) != 64<<10 || !bytes.Equal(data, bytes.Repeat(data[:1], len(data))) {
					t.Error("partial or mixed blob read")
				}
			}
		}()
	}
	wg.Wait()
	if got := files(t, l); len(got) != 1 {
		t.Fatalf("files %v", got)
	}
}

func BenchmarkPut1MiB(b *testing.B) {
	l := newLocal(b)
	data := make([]byte, 1<<20)
	b.SetBytes(int64(len(data)))
	for i := 0; b.Loop(); i++ {
		if _, err := l.Put(ctx, fmt.Sprintf("jobs/%d/input", i%64), bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}
