// Package blobstoretest is the conformance suite of ports.BlobStore: the
// behaviour every blob store (adapters/blobstore's Local and S3) must
// share, run against each of them by their own tests. What only one store
// does (files on disk, multipart uploads, bucket prefixes) is tested next
// to that store.
package blobstoretest

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"

	"strings"
	"sync"
	"testing"

	"github.com/dragoman-translate/dragoman/core/ports"
)

// Store is one fresh, empty store under test.
type Store struct {
	ports.BlobStore
	// Stored lists every name the backend holds, sorted, including any
	// temporary or unfinished object a store might leave behind.
	Stored func(t testing.TB) []string
}

// Suite describes the store to check.
type Suite struct {
	// New makes a fresh, empty store for one test.
	New func(t *testing.T) Store
	// BadKey is the error a refused key wraps.
	BadKey error
}

// Run runs every conformance test as a subtest of t.
func (s Suite) Run(t *testing.T) {
	for _, tc := range []struct {
		name string
		fn   func(*testing.T, Store)
	}{
		{"PutOpen", s.putOpen},
		{"OpenIsSnapshot", s.openIsSnapshot},
		{"BadKeys", s.badKeys},
		{"Delete", s.delete},
		{"FailedPutKeepsOldBlob", s.failedPutKeepsOld},
		{"Concurrent", s.concurrent},
		{"PutBesideDelete", s.putBesideDelete},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, s.New(t)) })
	}
}

var ctx = context.Background()

// Read reads the whole blob at key and checks its Size.
func Read(t testing.TB, s ports.BlobStore, key string) []byte {
	t.Helper()
	b, err := s.Open(ctx, key)
	if err != nil {
		t.Fatalf("open %s: %v", key, err)
	}
	defer b.Close()
	data, err := io.ReadAll(b)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(data)) != b.Size() {
		t.Fatalf("%s: size %d, read %d", key, b.Size(), len(data))
	}
	return data
}

func random(n int) []byte {
	b := make([]byte, n)
	rand.Read(b)
	return b
}

func (Suite) putOpen(t *testing.T, s Store) {
	data := random(3<<20 + 17)
	n, err := s.Put(ctx, "jobs/j1/input", bytes.NewReader(data))
	if err != nil || n != int64(len(data)) {
		t.Fatalf("put: %d %v", n, err)
	}
	if got := Read(t, s, "jobs/j1/input"); sha256.Sum256(got) != sha256.Sum256(data) {
		t.Fatal("content differs")
	}
	b, err := s.Open(ctx, "jobs/j1/input")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	// ReaderAt and Seeker work (zip readers need both).
	part := make([]byte, 10)
	if _, err := b.ReadAt(part, 1<<20); err != nil || !bytes.Equal(part, data[1<<20:1<<20+10]) {
		t.Fatalf("ReadAt: %v", err)
	}
	if _, err := b.ReadAt(part, int64(len(data)-10)); err != nil || !bytes.Equal(part, data[len(data)-10:]) {
		t.Fatalf("ReadAt at the end: %v", err)
	}
	if off, err := b.Seek(-5, io.SeekEnd); err != nil || off != int64(len(data)-5) {
		t.Fatalf("Seek: %d %v", off, err)
	}
	// Replacing keeps readers of the old blob whole and leaves nothing
	// behind.
	if _, err := s.Put(ctx, "jobs/j1/input", strings.NewReader("new")); err != nil {
		t.Fatal(err)
	}
	if got := string(Read(t, s, "jobs/j1/input")); got != "new" {
		t.Fatalf("after replace: %q", got)
	}
	rest, _ := io.ReadAll(b)
	if !bytes.Equal(rest, data[len(data)-5:]) {
		t.Fatal("open blob changed under its reader")
	}
	if got := s.Stored(t); len(got) != 1 || got[0] != "jobs/j1/input" {
		t.Fatalf("stored %v", got)
	}
	if _, err := s.Put(ctx, "empty", bytes.NewReader(nil)); err != nil {
		t.Fatal(err)
	}
	if got := Read(t, s, "empty"); len(got) != 0 {
		t.Fatal("empty blob not empty")
	}
	if _, err := s.Open(ctx, "jobs/j2/input"); !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("missing: %v", err)
	}
	if _, err := s.Open(ctx, "jobs/j1"); err == nil {
		t.Fatal("opened a folder (a key prefix) as a blob")
	}
}

// openIsSnapshot: an opened blob keeps reading what was stored when it was
// opened while another process replaces or deletes it.
func (Suite) openIsSnapshot(t *testing.T, s Store) {
	old := random(200 << 10)
	if _, err := s.Put(ctx, "jobs/s/input", bytes.NewReader(old)); err != nil {
		t.Fatal(err)
	}
	b, err := s.Open(ctx, "jobs/s/input")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if _, err := s.Put(ctx, "jobs/s/input", strings.NewReader("new")); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, "jobs/s/input"); err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(b)
	if !bytes.Equal(got, old) {
		t.Fatal("open blob changed")
	}
}

// BadKeys are refused by Put, Open and Delete: they could name something
// outside the store, or a temporary object of it.
var BadKeys = []string{
	"", "/etc/passwd", "/abs", "../secret", "jobs/../../secret", "a/../b", "jobs/./x", "./a", "jobs//x", "a//b",
	"jobs/x/", "a/", "..", ".", `jobs\..\..\secret`, `a\b`, "a\x00b", ".tmp-123", "jobs/.tmp-x",
}

// BadPrefixes are refused by DeletePrefix.
var BadPrefixes = []string{"../", "/etc", "/jobs", "jobs/../../", "../x/", "a/../b/c", `a\b`}

func (su Suite) badKeys(t *testing.T, s Store) {
	for _, key := range BadKeys {
		if _, err := s.Put(ctx, key, strings.NewReader("x")); !errors.Is(err, su.BadKey) {
			t.Errorf("Put %q: %v", key, err)
		}
		if _, err := s.Open(ctx, key); !errors.Is(err, su.BadKey) {
			t.Errorf("Open %q: %v", key, err)
		}
		if err := s.Delete(ctx, key); !errors.Is(err, su.BadKey) {
			t.Errorf("Delete %q: %v", key, err)
		}
	}
	for _, prefix := range BadPrefixes {
		if err := s.DeletePrefix(ctx, prefix); !errors.Is(err, su.BadKey) {
			t.Errorf("DeletePrefix %q: %v", prefix, err)
		}
	}
	if got := s.Stored(t); len(got) != 0 {
		t.Fatalf("bad keys stored %v", got)
	}
}

func (Suite) delete(t *testing.T, s Store) {
	for _, k := range []string{"jobs/1/input", "jobs/1/output", "jobs/12/input", "jobs/2/input", "jobsx", "other/1"} {
		if _, err := s.Put(ctx, k, strings.NewReader(k)); err != nil {
			t.Fatal(err)
		}
	}
	for range 2 { // deleting what is missing is fine
		if err := s.Delete(ctx, "jobs/2/input"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Open(ctx, "jobs/2/input"); !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("deleted blob opens: %v", err)
	}
	if err := s.DeletePrefix(ctx, "jobs/1/"); err != nil {
		t.Fatal(err)
	}
	want := []string{"jobs/12/input", "jobsx", "other/1"}
	if got := s.Stored(t); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("after DeletePrefix jobs/1/: %v", got)
	}
	if got := string(Read(t, s, "jobs/12/input")); got != "jobs/12/input" {
		t.Fatalf("kept blob reads %q", got)
	}
	// A plain string prefix crosses folder names.
	if err := s.DeletePrefix(ctx, "jobs"); err != nil {
		t.Fatal(err)
	}
	if got := s.Stored(t); strings.Join(got, ",") != "other/1" {
		t.Fatalf("after DeletePrefix jobs: %v", got)
	}
	if err := s.DeletePrefix(ctx, "nothing/here/"); err != nil {
		t.Fatal(err)
	}
	if err := s.DeletePrefix(ctx, ""); err != nil {
		t.Fatal(err)
	}
	if got := s.Stored(t); len(got) != 0 {
		t.Fatalf("after DeletePrefix \"\": %v", got)
	}
}

// FailingReader fails after N bytes, like a dropped upload.
type FailingReader struct{ N int }

func (f *FailingReader) Read(p []byte) (int, error) {
	if f.N <= 0 {
		return 0, errors.New("connection reset")
	}
	n := min(len(p), f.N)
	f.N -= n
	return n, nil
}

func (Suite) failedPutKeepsOld(t *testing.T, s Store) {
	if _, err := s.Put(ctx, "k", strings.NewReader("old")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Put(ctx, "k", &FailingReader{N: 100000}); err == nil {
		t.Fatal("failed upload reported success")
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.Put(cctx, "k", strings.NewReader("new")); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled put: %v", err)
	}
	if _, err := s.Put(cctx, "other", strings.NewReader("new")); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled put: %v", err)
	}
	if _, err := s.Open(ctx, "other"); !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("cancelled put is visible: %v", err)
	}
	if got := string(Read(t, s, "k")); got != "old" {
		t.Fatalf("blob %q after failed puts", got)
	}
	if got := s.Stored(t); len(got) != 1 {
		t.Fatalf("left behind: %v", got)
	}
}

// concurrent: readers never see a partial blob while writers replace it,
// and puts survive concurrent deletes of sibling keys.
func (Suite) concurrent(t *testing.T, s Store) {
	payload := func(i int) []byte { return bytes.Repeat([]byte{byte('a' + i%26)}, 64<<10) }
	if _, err := s.Put(ctx, "jobs/x/output", bytes.NewReader(payload(0))); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(2)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				if _, err := s.Put(ctx, "jobs/x/output", bytes.NewReader(payload(w*20+i))); err != nil {
					t.Error(err)
				}
				key := fmt.Sprintf("jobs/y/%d-%d", w, i)
				if _, err := s.Put(ctx, key, strings.NewReader("v")); err != nil {
					t.Error(err)
				}
				if err := s.Delete(ctx, key); err != nil {
					t.Error(err)
				}
			}
		}(w)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				b, err := s.Open(ctx, "jobs/x/output")
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
	if got := s.Stored(t); len(got) != 1 {
		t.Fatalf("stored %v", got)
	}
}

// putBesideDelete: a Put never fails because a Delete or DeletePrefix of a
// sibling key emptied and removed the folders the new key needs at that
// moment (a local store prunes empty folders; issue 26 saw a 500
// "mkdir .../jobs/<id>: no such file or directory" from that race).
func (Suite) putBesideDelete(t *testing.T, s Store) {
	const workers, rounds = 4, 200
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < rounds; i++ {
				// Each key is alone in its folders, so its Delete prunes
				// "race/<w>-<i>" and, often, "race" while others put.
				key := fmt.Sprintf("race/%d-%d/deep/input", w, i)
				if _, err := s.Put(ctx, key, strings.NewReader("v")); err != nil {
					t.Errorf("put beside deletes: %v", err)
					return
				}
				var err error
				if i%2 == 0 {
					err = s.Delete(ctx, key)
				} else {
					err = s.DeletePrefix(ctx, fmt.Sprintf("race/%d-%d/", w, i))
				}
				if err != nil {
					t.Errorf("delete beside puts: %v", err)
					return
				}
			}
		}(w)
	}
	wg.Wait()
	if got := s.Stored(t); len(got) != 0 {
		t.Fatalf("left behind: %v", got)
	}
}
