package blobstore

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/minio/minio-go/v7"

	"github.com/dragoman-translate/dragoman/core/ports"
)

// benchStores are the two stores compared by the benchmarks.
func benchStores(b *testing.B) map[string]ports.BlobStore {
	return map[string]ports.BlobStore{"local": newLocal(b), "s3": newS3(b, s3Config(b))}
}

// BenchmarkBlobPut stores documents of typical and large sizes.
func BenchmarkBlobPut(b *testing.B) {
	for _, size := range []int{256 << 10, 4 << 20, 50 << 20} {
		data := randomBytes(size)
		for _, name := range []string{"local", "s3"} {
			b.Run(fmt.Sprintf("%s/%dKiB", name, size>>10), func(b *testing.B) {
				s := benchStores(b)[name]
				b.SetBytes(int64(size))
				for i := 0; b.Loop(); i++ {
					if _, err := s.Put(ctx, fmt.Sprintf("jobs/%d/input", i%8), bytes.NewReader(data)); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkBlobOpenRead opens a blob and reads it whole.
func BenchmarkBlobOpenRead(b *testing.B) {
	for _, size := range []int{256 << 10, 4 << 20, 50 << 20} {
		data := randomBytes(size)
		for _, name := range []string{"local", "s3"} {
			b.Run(fmt.Sprintf("%s/%dKiB", name, size>>10), func(b *testing.B) {
				s := benchStores(b)[name]
				if _, err := s.Put(ctx, "jobs/1/input", bytes.NewReader(data)); err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(size))
				for b.Loop() {
					blob, err := s.Open(ctx, "jobs/1/input")
					if err != nil {
						b.Fatal(err)
					}
					if _, err := io.Copy(io.Discard, blob); err != nil {
						b.Fatal(err)
					}
					blob.Close()
				}
			})
		}
	}
}

// BenchmarkS3ZipRead reads every member of a 4 MiB zip package the way
// the document engines do (zip.NewReader over ReadAt), from the spooled
// blob Open returns and, for comparison, from minio's object directly,
// where every ReadAt is an HTTP range request.
func BenchmarkS3ZipRead(b *testing.B) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := range 40 {
		w, _ := zw.CreateHeader(&zip.FileHeader{Name: fmt.Sprintf("word/part%d.xml", i), Method: zip.Store})
		w.Write(randomBytes(100 << 10))
	}
	zw.Close()
	s := newS3(b, s3Config(b))
	if _, err := s.Put(ctx, "jobs/z/input", bytes.NewReader(buf.Bytes())); err != nil {
		b.Fatal(err)
	}
	readZip := func(b *testing.B, r io.ReaderAt, size int64) {
		zr, err := zip.NewReader(r, size)
		if err != nil {
			b.Fatal(err)
		}
		for _, f := range zr.File {
			rc, err := f.Open()
			if err != nil {
				b.Fatal(err)
			}
			if _, err := io.Copy(io.Discard, rc); err != nil {
				b.Fatal(err)
			}
			rc.Close()
		}
	}
	b.Run("spooled", func(b *testing.B) {
		b.SetBytes(int64(buf.Len()))
		for b.Loop() {
			blob, err := s.Open(ctx, "jobs/z/input")
			if err != nil {
				b.Fatal(err)
			}
			readZip(b, blob, blob.Size())
			blob.Close()
		}
	})
	b.Run("object-range-requests", func(b *testing.B) {
		b.SetBytes(int64(buf.Len()))
		for b.Loop() {
			obj, err := s.client.GetObject(ctx, s.bucket, s.prefix+"jobs/z/input", minio.GetObjectOptions{})
			if err != nil {
				b.Fatal(err)
			}
			st, err := obj.Stat()
			if err != nil {
				b.Fatal(err)
			}
			readZip(b, obj, st.Size)
			obj.Close()
		}
	})
}
