// Package blobstore keeps documents by key. Local is the embedded default:
// a folder on disk, one file per key.
package blobstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/dragoman-translate/dragoman/core/ports"
)

// tempPrefix names files being written; they are never listed as blobs.
const tempPrefix = ".tmp-"

// ErrBadKey is returned for a key that could name a file outside the folder.
var ErrBadKey = errors.New("blobstore: bad key")

// Local implements ports.BlobStore over a folder. Keys are slash-separated
// relative paths such as "jobs/<id>/input".
type Local struct {
	root string
	// folders orders making a key's folders against pruning emptied ones:
	// a Put holds it shared from making its folder until its temp file is
	// in it (the folder is then not empty), pruning holds it alone.
	folders sync.RWMutex
}

var _ ports.BlobStore = (*Local)(nil)

// NewLocal uses dir (created if missing) as the store's folder.
func NewLocal(dir string) (*Local, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("blobstore: %w", err)
	}
	if err := os.MkdirAll(abs, 0o750); err != nil {
		return nil, fmt.Errorf("blobstore: %w", err)
	}
	return &Local{root: abs}, nil
}

// Root is the store's folder.
func (l *Local) Root() string { return l.root }

// checkKey accepts clean relative slash paths only: no "..", ".", empty
// or temp-file elements, no absolute paths, backslashes or NULs.
func checkKey(key string) error {
	if key == "" || strings.ContainsAny(key, "\\\x00") || path.IsAbs(key) || filepath.IsAbs(key) || filepath.VolumeName(key) != "" {
		return fmt.Errorf("%w: %q", ErrBadKey, key)
	}
	for _, el := range strings.Split(key, "/") {
		if el == "" || el == "." || el == ".." || strings.HasPrefix(el, tempPrefix) {
			return fmt.Errorf("%w: %q", ErrBadKey, key)
		}
	}
	return nil
}

func (l *Local) file(key string) (string, error) {
	if err := checkKey(key); err != nil {
		return "", err
	}
	return filepath.Join(l.root, filepath.FromSlash(key)), nil
}

// Put stores r under key, replacing any blob there. The data goes to a
// temp file in the same folder, is synced, then renamed over the key, so a
// reader sees the old blob or the whole new one, never a part.
func (l *Local) Put(ctx context.Context, key string, r io.Reader) (int64, error) {
	name, err := l.file(key)
	if err != nil {
		return 0, err
	}
	dir := filepath.Dir(name)
	l.folders.RLock()
	tmp, err := createTemp(dir)
	l.folders.RUnlock()
	if err != nil {
		return 0, unavailable(fmt.Errorf("blobstore: put %s: %w", key, err))
	}
	n, err := io.Copy(tmp, ctxReader{ctx, r})
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), name)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return 0, unavailable(fmt.Errorf("blobstore: put %s: %w", key, err))
	}
	// Sync the folder so the rename itself survives a crash.
	if err := syncDir(dir); err != nil {
		return 0, unavailable(fmt.Errorf("blobstore: put %s: %w", key, err))
	}
	return n, nil
}

// Open opens the blob at key; ports.ErrNotFound if there is none.
func (l *Local) Open(ctx context.Context, key string) (ports.Blob, error) {
	name, err := l.file(key)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("blobstore: open %s: %w", key, ports.ErrNotFound)
		}
		return nil, fmt.Errorf("blobstore: open %s: %w", key, err)
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = fmt.Errorf("not a regular file")
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("blobstore: open %s: %w", key, err)
	}
	return &fileBlob{File: f, size: st.Size()}, nil
}

// Delete removes the blob at key; deleting a missing blob is not an error,
// so cleanup can be repeated.
func (l *Local) Delete(ctx context.Context, key string) error {
	name, err := l.file(key)
	if err != nil {
		return err
	}
	if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("blobstore: delete %s: %w", key, err)
	}
	l.pruneDirs(filepath.Dir(name))
	return nil
}

// DeletePrefix removes every blob whose key starts with prefix (a plain
// string prefix: "jobs/1" matches "jobs/1/input" and "jobs/12/input").
// Only the folder that holds all possible matches is walked.
func (l *Local) DeletePrefix(ctx context.Context, prefix string) error {
	if strings.ContainsAny(prefix, "\\\x00") || path.IsAbs(prefix) {
		return fmt.Errorf("%w: prefix %q", ErrBadKey, prefix)
	}
	dirKey := ""
	if i := strings.LastIndex(prefix, "/"); i >= 0 {
		dirKey = prefix[:i]
		if err := checkKey(dirKey); err != nil {
			return fmt.Errorf("%w: prefix %q", ErrBadKey, prefix)
		}
	}
	start := filepath.Join(l.root, filepath.FromSlash(dirKey))
	var dirs []string
	err := filepath.WalkDir(start, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		rel, err := filepath.Rel(l.root, p)
		if err != nil {
			return err
		}
		key := filepath.ToSlash(rel)
		if d.IsDir() {
			// Skip folders that cannot hold a match.
			if p != start && !strings.HasPrefix(key+"/", prefix) && !strings.HasPrefix(prefix, key+"/") && !strings.HasPrefix(key, prefix) {
				return fs.SkipDir
			}
			dirs = append(dirs, p)
			return nil
		}
		if strings.HasPrefix(d.Name(), tempPrefix) || !strings.HasPrefix(key, prefix) {
			return nil
		}
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("blobstore: delete prefix %q: %w", prefix, err)
	}
	// Remove emptied folders, deepest first.
	for i := len(dirs) - 1; i >= 0; i-- {
		l.pruneDirs(dirs[i])
	}
	return nil
}

// pruneDirs removes dir and its parents while they are empty, up to the
// root; a folder that is not empty (or is being written to) stays.
func (l *Local) pruneDirs(dir string) {
	l.folders.Lock()
	defer l.folders.Unlock()
	for dir != l.root && strings.HasPrefix(dir, l.root+string(filepath.Separator)) {
		if os.Remove(dir) != nil {
			return
		}
		dir = filepath.Dir(dir)
	}
}

// createTemp makes the folder and a temp file in it. Another process
// pruning the same folder may remove a parent between the two, or inside
// MkdirAll (its Mkdir then fails with ErrNotExist), so that is retried.
func createTemp(dir string) (*os.File, error) {
	for try := 0; ; try++ {
		f, err := os.CreateTemp(dir, tempPrefix+"*")
		if errors.Is(err, fs.ErrNotExist) && try < 10 {
			if err = os.MkdirAll(dir, 0o750); err == nil || errors.Is(err, fs.ErrNotExist) {
				continue
			}
		}
		return f, err
	}
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// fileBlob is an open blob file.
type fileBlob struct {
	*os.File
	size int64
}

func (b *fileBlob) Size() int64 { return b.size }

// ctxReader stops a copy when the context ends.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
