package blobstore

import (
	"context"
	"errors"
	"fmt"
	"os"
)

// Check says whether the store can take documents, for the readiness
// probe: its folder exists and a file can be written in it.
func (l *Local) Check(context.Context) error {
	fi, err := os.Stat(l.root)
	if err != nil {
		return fmt.Errorf("document folder: %w", err)
	}
	if !fi.IsDir() {
		return errors.New("document folder is not a directory")
	}
	f, err := os.CreateTemp(l.root, ".ready-*")
	if err != nil {
		return fmt.Errorf("document folder: %w", err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// Check says whether the bucket answers, for the readiness probe.
func (s *S3) Check(ctx context.Context) error {
	ok, err := s.client.BucketExists(ctx, s.bucket)
	if err != nil {
		return fmt.Errorf("s3 bucket %s: %w", s.bucket, err)
	}
	if !ok {
		return fmt.Errorf("s3 bucket %s does not exist", s.bucket)
	}
	return nil
}
