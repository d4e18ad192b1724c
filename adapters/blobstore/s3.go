package blobstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/dragoman-translate/dragoman/core/ports"
)

// DefaultPartSize is the multipart part size of S3 uploads: the most of
// one document an upload holds in memory.
const DefaultPartSize = 16 << 20

// singlePutMax is the largest upload sent as one PUT; the probe buffer
// that decides it is kept small so a large upload holds at most this
// plus one part in memory.
const singlePutMax = 5 << 20

// S3Config says where an S3 store keeps its blobs.
type S3Config struct {
	Endpoint  string // host[:port]
	Secure    bool   // https
	Region    string
	Bucket    string
	Prefix    string // key prefix inside the bucket, e.g. "dragoman" (no slashes at the ends)
	PathStyle bool   // bucket in the path (most self-hosted servers), not in the host name
	// AccessKey and SecretKey are static credentials; empty: the AWS
	// environment variables, then the instance role.
	AccessKey, SecretKey, SessionToken string
	PartSize                           int64  // multipart part size; 0: DefaultPartSize
	SpoolDir                           string // where opened blobs are downloaded; "": os.TempDir()
}

// ParseS3URL reads s3://bucket[/prefix]?endpoint=http://host:port&region=R&path_style=true&part_size=BYTES.
// Without endpoint it is AWS (https://s3.amazonaws.com). Credentials are
// not part of the URL.
func ParseS3URL(raw string) (S3Config, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return S3Config{}, fmt.Errorf("blobstore: s3 url: %w", err)
	}
	if u.Scheme != "s3" || u.Host == "" {
		return S3Config{}, fmt.Errorf("blobstore: s3 url %q: want s3://bucket[/prefix]?endpoint=…", raw)
	}
	if u.User != nil {
		return S3Config{}, errors.New("blobstore: s3 url: put credentials in the environment, not the URL")
	}
	q := u.Query()
	c := S3Config{Bucket: u.Host, Prefix: strings.Trim(u.Path, "/"), Region: q.Get("region"), Endpoint: "s3.amazonaws.com", Secure: true}
	if e := q.Get("endpoint"); e != "" {
		eu, err := url.Parse(e)
		if err != nil || (eu.Scheme != "http" && eu.Scheme != "https") || eu.Host == "" {
			return S3Config{}, fmt.Errorf("blobstore: s3 url: endpoint %q: want http(s)://host[:port]", e)
		}
		c.Endpoint, c.Secure = eu.Host, eu.Scheme == "https"
	}
	if v := q.Get("path_style"); v != "" {
		if c.PathStyle, err = strconv.ParseBool(v); err != nil {
			return S3Config{}, fmt.Errorf("blobstore: s3 url: path_style %q: %w", v, err)
		}
	}
	if v := q.Get("part_size"); v != "" {
		if c.PartSize, err = strconv.ParseInt(v, 10, 64); err != nil || c.PartSize < 5<<20 {
			return S3Config{}, fmt.Errorf("blobstore: s3 url: part_size %q: want bytes, at least 5 MiB", v)
		}
	}
	if c.Prefix != "" {
		if err := checkKey(c.Prefix); err != nil {
			return S3Config{}, fmt.Errorf("blobstore: s3 url: prefix: %w", err)
		}
	}
	return c, nil
}

// S3 implements ports.BlobStore on an S3-compatible object store shared
// by every process of the scale-out deployment. Keys are validated like
// Local's, so one key set works on both.
type S3 struct {
	client   *minio.Client
	bucket   string
	prefix   string // "" or "p/"
	partSize int64
	spoolDir string
}

var _ ports.BlobStore = (*S3)(nil)

// NewS3 connects and checks the bucket, creating it if missing, so a
// wrong endpoint or credential fails at start rather than on the first job.
func NewS3(ctx context.Context, c S3Config) (*S3, error) {
	creds := credentials.NewStaticV4(c.AccessKey, c.SecretKey, c.SessionToken)
	if c.AccessKey == "" {
		creds = credentials.NewChainCredentials([]credentials.Provider{&credentials.EnvAWS{}, &credentials.IAM{}})
	}
	lookup := minio.BucketLookupAuto
	if c.PathStyle {
		lookup = minio.BucketLookupPath
	}
	// Few retries: a server that refuses connections is down, and every
	// caller retries on its own terms (the API answers 503 at once, the
	// pipeline redelivers), where minio-go's ten took 5 to 8 s to fail.
	client, err := minio.New(c.Endpoint, &minio.Options{Creds: creds, Secure: c.Secure, Region: c.Region, BucketLookup: lookup, MaxRetries: 2})
	if err != nil {
		return nil, fmt.Errorf("blobstore: s3: %w", err)
	}
	s := &S3{client: client, bucket: c.Bucket, partSize: c.PartSize, spoolDir: c.SpoolDir}
	if s.partSize == 0 {
		s.partSize = DefaultPartSize
	}
	if c.Prefix != "" {
		s.prefix = strings.Trim(c.Prefix, "/") + "/"
	}
	if s.spoolDir != "" {
		if err := os.MkdirAll(s.spoolDir, 0o700); err != nil {
			return nil, fmt.Errorf("blobstore: s3 spool: %w", err)
		}
	}
	ok, err := client.BucketExists(ctx, c.Bucket)
	if err != nil {
		return nil, fmt.Errorf("blobstore: s3 bucket %s at %s: %w", c.Bucket, c.Endpoint, err)
	}
	if !ok {
		err := client.MakeBucket(ctx, c.Bucket, minio.MakeBucketOptions{Region: c.Region})
		// Another process may have created it in between.
		if err != nil && minio.ToErrorResponse(err).Code != minio.BucketAlreadyOwnedByYou {
			return nil, fmt.Errorf("blobstore: s3 create bucket %s: %w", c.Bucket, err)
		}
	}
	return s, nil
}

func (s *S3) object(key string) (string, error) {
	if err := checkKey(key); err != nil {
		return "", err
	}
	return s.prefix + key, nil
}

var probePool = sync.Pool{New: func() any { b := make([]byte, singlePutMax); return &b }}

// Put stores r under key. An S3 PUT replaces an object atomically, so a
// reader sees the old blob or the whole new one. Small blobs go in one
// request; larger ones stream as a multipart upload of PartSize parts,
// never whole in memory.
func (s *S3) Put(ctx context.Context, key string, r io.Reader) (int64, error) {
	name, err := s.object(key)
	if err != nil {
		return 0, err
	}
	bp := probePool.Get().(*[]byte)
	defer probePool.Put(bp)
	cr := &countingReader{r: ctxReader{ctx, r}}
	n, err := io.ReadFull(cr, *bp)
	opts := minio.PutObjectOptions{ContentType: "application/octet-stream", PartSize: uint64(s.partSize)}
	switch {
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		// A gateway over a POSIX folder (versitygw) removes emptied parent
		// folders on delete, racing a PUT that makes them, which then fails
		// with ExistingObjectIsDirectory: the whole body is at hand, so
		// send it again.
		for try := 1; ; try++ {
			_, err = s.client.PutObject(ctx, s.bucket, name, bytes.NewReader((*bp)[:n]), int64(n), opts)
			if try == 5 || minio.ToErrorResponse(err).Code != "ExistingObjectIsDirectory" {
				break
			}
		}
	case err == nil:
		body := io.MultiReader(bytes.NewReader(*bp), cr)
		_, err = s.client.PutObject(ctx, s.bucket, name, body, -1, opts)
	}
	if err != nil {
		return 0, unavailable(fmt.Errorf("blobstore: put %s: %w", key, err))
	}
	return cr.n, nil
}

// Open downloads the blob at key into an unlinked spool file and reads it
// from there: the document engines read a package with many small ReadAt
// calls, each of which would be an HTTP range request on the object
// itself, and the spool also makes the blob a snapshot, like Local's.
// ports.ErrNotFound if there is none.
func (s *S3) Open(ctx context.Context, key string) (ports.Blob, error) {
	name, err := s.object(key)
	if err != nil {
		return nil, err
	}
	// minio-go reads an object in requests pinned to the ETag the first one
	// saw; a blob replaced meanwhile fails them with PreconditionFailed.
	// Reading again gets the new blob whole, as a local Open would.
	for try := 1; ; try++ {
		b, err := s.open(ctx, key, name)
		var resp minio.ErrorResponse
		if try < 10 && errors.As(err, &resp) && resp.Code == "PreconditionFailed" {
			continue
		}
		return b, err
	}
}

func (s *S3) open(ctx context.Context, key, name string) (ports.Blob, error) {
	obj, err := s.client.GetObject(ctx, s.bucket, name, minio.GetObjectOptions{})
	if err != nil {
		return nil, s.openErr(key, err)
	}
	defer obj.Close()
	f, err := os.CreateTemp(s.spoolDir, "dragoman-blob-*")
	if err != nil {
		return nil, unavailable(fmt.Errorf("blobstore: open %s: %w", key, err))
	}
	// Unlinked at once: the space comes back on Close or on a crash.
	os.Remove(f.Name())
	// One GET, no Stat first: a Stat is a HEAD whose ETag pins the GET,
	// which then fails with PreconditionFailed whenever the blob is
	// replaced in between (the concurrent suite hit it after 10 tries). A
	// body cut short fails the copy (its Content-Length is checked).
	n, err := io.Copy(f, ctxReader{ctx, obj})
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err != nil {
		f.Close()
		return nil, s.openErr(key, err)
	}
	return &fileBlob{File: f, size: n}, nil
}

func (s *S3) openErr(key string, err error) error {
	if minio.ToErrorResponse(err).Code == minio.NoSuchKey {
		return fmt.Errorf("blobstore: open %s: %w", key, ports.ErrNotFound)
	}
	return unavailable(fmt.Errorf("blobstore: open %s: %w", key, err))
}

// Delete removes the blob at key; deleting a missing blob is not an error.
func (s *S3) Delete(ctx context.Context, key string) error {
	name, err := s.object(key)
	if err != nil {
		return err
	}
	if err := s.client.RemoveObject(ctx, s.bucket, name, minio.RemoveObjectOptions{}); err != nil && minio.ToErrorResponse(err).Code != minio.NoSuchKey {
		return unavailable(fmt.Errorf("blobstore: delete %s: %w", key, err))
	}
	return nil
}

// DeletePrefix removes every blob whose key starts with prefix (a plain
// string prefix, as for Local), listing and removing in batches.
func (s *S3) DeletePrefix(ctx context.Context, prefix string) error {
	if strings.ContainsAny(prefix, "\\\x00") || path.IsAbs(prefix) {
		return fmt.Errorf("%w: prefix %q", ErrBadKey, prefix)
	}
	if i := strings.LastIndex(prefix, "/"); i >= 0 {
		if err := checkKey(prefix[:i]); err != nil {
			return fmt.Errorf("%w: prefix %q", ErrBadKey, prefix)
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	listed := s.client.ListObjects(ctx, s.bucket, minio.ListObjectsOptions{Prefix: s.prefix + prefix, Recursive: true})
	// ListObjects reports its error as an item; pass objects on and keep it.
	toRemove := make(chan minio.ObjectInfo)
	var listErr error
	go func() {
		defer close(toRemove)
		for o := range listed {
			if o.Err != nil {
				listErr = o.Err
				cancel()
				continue
			}
			select {
			case toRemove <- o:
			case <-ctx.Done():
			}
		}
	}()
	var errs []error
	for e := range s.client.RemoveObjects(ctx, s.bucket, toRemove, minio.RemoveObjectsOptions{}) {
		if minio.ToErrorResponse(e.Err).Code != minio.NoSuchKey {
			errs = append(errs, fmt.Errorf("%s: %w", e.ObjectName, e.Err))
		}
	}
	if listErr != nil {
		errs = append(errs, listErr)
	}
	if err := errors.Join(errs...); err != nil {
		return unavailable(fmt.Errorf("blobstore: delete prefix %q: %w", prefix, err))
	}
	return ctx.Err()
}

// countingReader counts the bytes Put read.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
