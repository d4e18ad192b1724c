package ports

import (
	"context"
	"io"
)

// Blob is a stored document opened for reading.
type Blob interface {
	io.Reader
	io.ReaderAt
	io.Seeker
	io.Closer
	Size() int64
}

// BlobStore keeps documents by key.
type BlobStore interface {
	Put(ctx context.Context, key string, r io.Reader) (int64, error)
	Open(ctx context.Context, key string) (Blob, error)
	Delete(ctx context.Context, key string) error
	// DeletePrefix removes every blob whose key starts with prefix.
	DeletePrefix(ctx context.Context, prefix string) error
}
