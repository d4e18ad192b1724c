package pipeline

import (
	"bytes"
	"context"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/dragoman-translate/dragoman/core/ports"
)

// memBlobs keeps what is put, like a bucket.
type memBlobs struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (b *memBlobs) Put(_ context.Context, k string, r io.Reader) (int64, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return 0, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.m[k] = data
	return int64(len(data)), nil
}
func (b *memBlobs) Open(_ context.Context, k string) (ports.Blob, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	data, ok := b.m[k]
	if !ok {
		return nil, ports.ErrNotFound
	}
	return blob{bytes.NewReader(data)}, nil
}
func (b *memBlobs) Delete(_ context.Context, k string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.m, k)
	return nil
}
func (b *memBlobs) DeletePrefix(_ context.Context, prefix string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	for k := range b.m {
		if strings.HasPrefix(k, prefix) {
			delete(b.m, k)
		}
	}
	return nil
}
func (b *memBlobs) keys() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for k := range b.m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
