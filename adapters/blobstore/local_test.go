package blobstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/adapters/blobstore/blobstoretest"
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

// files lists every file under the root as slash paths, temp files included.
func files(t testing.TB, l *Local) []string {
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

// TestLocal runs the blob store conformance suite on the local store.
func TestLocal(t *testing.T) {
	blobstoretest.Suite{
		New: func(t *testing.T) blobstoretest.Store {
			l := newLocal(t)
			return blobstoretest.Store{BlobStore: l, Stored: func(t testing.TB) []string { return files(t, l) }}
		},
		BadKey: ErrBadKey,
	}.Run(t)
}

// Keys that traverse out of the root leave the files next to it alone.
func TestLocalBadKeysStayInside(t *testing.T) {
	l := newLocal(t)
	// A file just outside the root that traversal would reach.
	outside := filepath.Join(filepath.Dir(l.Root()), "secret")
	os.WriteFile(outside, []byte("x"), 0o600)
	for _, key := range blobstoretest.BadKeys {
		l.Put(ctx, key, strings.NewReader("y"))
		l.Delete(ctx, key)
	}
	for _, prefix := range blobstoretest.BadPrefixes {
		l.DeletePrefix(ctx, prefix)
	}
	if b, err := os.ReadFile(outside); err != nil || string(b) != "x" {
		t.Fatal("file outside the root touched")
	}
}

// Deleting the last blob of a folder removes the folder.
func TestLocalDeleteRemovesEmptiedFolders(t *testing.T) {
	l := newLocal(t)
	for _, k := range []string{"jobs/1/input", "jobs/2/input", "other/1"} {
		if _, err := l.Put(ctx, k, strings.NewReader(k)); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Delete(ctx, "jobs/2/input"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(l.Root(), "jobs", "2")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("emptied folder kept")
	}
	if err := l.DeletePrefix(ctx, ""); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(l.Root()); len(entries) != 0 {
		t.Fatalf("folders left: %v", entries)
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
