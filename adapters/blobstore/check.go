package blobstore

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/dragoman-translate/dragoman/adapters/internal/diskroom"
)

// Check says whether the store can take documents, for the readiness
// probe: its folder exists, a file can be written in it and its disk has
// room (creating an empty file succeeds on a full disk).
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
	if err := os.Remove(name); err != nil {
		return err
	}
	return diskroom.Check("the document store", l.root)
}

// Check says whether the bucket answers, for the readiness probe.
func (s *S3) Check(ctx context.Context) error {
	ok, err := s.client.BucketExists(ctx, s.bucket)
	if err != nil {
		return unavailable(fmt.Errorf("s3 bucket %s: %w", s.bucket, err))
	}
	if !ok {
		return fmt.Errorf("s3 bucket %s does not exist", s.bucket)
	}
	return nil
}
