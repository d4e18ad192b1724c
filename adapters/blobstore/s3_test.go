package blobstore

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"

	"github.com/dragoman-translate/dragoman/adapters/blobstore/blobstoretest"
	"github.com/dragoman-translate/dragoman/adapters/blobstore/s3test"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// One versitygw per test binary run is enough; each test gets its own
// bucket. It starts with the first test that needs it.
var (
	s3Once    sync.Once
	s3Server  *s3test.Server
	s3Stop    func()
	s3Err     error
	s3Buckets atomic.Int64
)

func TestMain(m *testing.M) {
	code := m.Run()
	if s3Stop != nil {
		s3Stop()
		os.RemoveAll(s3Server.Dir)
	}
	os.Exit(code)
}

// s3Config points at a fresh bucket of the shared test server.
func s3Config(t testing.TB) S3Config {
	t.Helper()
	s3Once.Do(func() {
		bin, err := s3test.BinaryPath()
		if err != nil {
			s3Err = err
			return
		}
		dir, err := os.MkdirTemp("", "dragoman-s3-")
		if err != nil {
			s3Err = err
			return
		}
		s3Server, s3Stop, s3Err = s3test.Run(bin, dir)
	})
	if s3Err != nil {
		t.Fatal(s3Err)
	}
	bucket := fmt.Sprintf("test-%d", s3Buckets.Add(1))
	c, err := ParseS3URL(s3Server.URL(bucket))
	if err != nil {
		t.Fatal(err)
	}
	c.AccessKey, c.SecretKey = s3Server.AccessKey, s3Server.SecretKey
	c.SpoolDir = t.TempDir()
	return c
}

func newS3(t testing.TB, c S3Config) *S3 {
	t.Helper()
	s, err := NewS3(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func freeAddrForTest(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func readBlob(t testing.TB, s ports.BlobStore, key string) []byte {
	t.Helper()
	return blobstoretest.Read(t, s, key)
}

// TestS3 runs the blob store conformance suite on the S3 store, each test
// on its own bucket of one versitygw.
func TestS3(t *testing.T) {
	blobstoretest.Suite{
		New: func(t *testing.T) blobstoretest.Store {
			s := newS3(t, s3Config(t))
			return blobstoretest.Store{BlobStore: s, Stored: func(t testing.TB) []string { return stored(t, s) }}
		},
		BadKey: ErrBadKey,
	}.Run(t)
}

// stored is every object of the bucket and every unfinished multipart
// upload (as "upload:" and its key).
func stored(t testing.TB, s *S3) []string {
	t.Helper()
	out := objects(t, s)
	for u := range s.client.ListIncompleteUploads(ctx, s.bucket, "", true) {
		if u.Err != nil {
			t.Fatal(u.Err)
		}
		out = append(out, "upload:"+u.Key)
	}
	sort.Strings(out)
	return out
}

// objects lists the bucket's object names.
func objects(t testing.TB, s *S3) []string {
	t.Helper()
	var out []string
	for o := range s.client.ListObjects(ctx, s.bucket, minio.ListObjectsOptions{Recursive: true}) {
		if o.Err != nil {
			t.Fatal(o.Err)
		}
		out = append(out, o.Key)
	}
	sort.Strings(out)
	return out
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	rand.Read(b)
	return b
}

func TestS3PutOpenSizes(t *testing.T) {
	c := s3Config(t)
	c.PartSize = 5 << 20 // several parts without huge test data
	s := newS3(t, c)
	// Empty, small, the single-PUT limit, one byte over it (multipart) and
	// several parts with a short last one.
	for _, size := range []int{0, 1, 4096, singlePutMax, singlePutMax + 1, 3*(5<<20) + 12345} {
		data := randomBytes(size)
		key := "jobs/sizes/" + itoa(int64(size))
		n, err := s.Put(ctx, key, bytes.NewReader(data))
		if err != nil || n != int64(size) {
			t.Fatalf("put %d: %d %v", size, n, err)
		}
		if got := readBlob(t, s, key); sha256.Sum256(got) != sha256.Sum256(data) {
			t.Fatalf("size %d: content differs", size)
		}
	}
	// ReaderAt and Seeker (zip readers need both) on a multipart blob.
	data := randomBytes(singlePutMax + 999)
	if _, err := s.Put(ctx, "jobs/ra/input", iotestOneByteAtATime(data)); err != nil {
		t.Fatal(err)
	}
	b, err := s.Open(ctx, "jobs/ra/input")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	buf := make([]byte, 100)
	if _, err := b.ReadAt(buf, int64(len(data)-100)); err != nil || !bytes.Equal(buf, data[len(data)-100:]) {
		t.Fatalf("ReadAt at the end: %v", err)
	}
	if pos, err := b.Seek(-10, io.SeekEnd); err != nil || pos != int64(len(data)-10) {
		t.Fatalf("Seek: %d %v", pos, err)
	}
	rest, _ := io.ReadAll(b)
	if !bytes.Equal(rest, data[len(data)-10:]) {
		t.Fatal("read after Seek differs")
	}
}

// iotestOneByteAtATime hides bytes.Reader's WriterTo and hands out small reads,
// like a network body.
func iotestOneByteAtATime(b []byte) io.Reader {
	return readerFunc(bytes.NewReader(b).Read)
}

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) {
	if len(p) > 1000 {
		p = p[:1000]
	}
	return f(p)
}

// TestS3FailedPutKeepsOldBlob: a body that breaks off (a dropped upload)
// leaves the previous blob and no unfinished multipart upload.
func TestS3FailedPutKeepsOldBlob(t *testing.T) {
	c := s3Config(t)
	c.PartSize = 5 << 20
	s := newS3(t, c)
	if _, err := s.Put(ctx, "jobs/f/input", strings.NewReader("old")); err != nil {
		t.Fatal(err)
	}
	for _, after := range []int{1000, singlePutMax + 1000, 2*(5<<20) + 1000} {
		_, err := s.Put(ctx, "jobs/f/input", io.MultiReader(bytes.NewReader(randomBytes(after)), &blobstoretest.FailingReader{}))
		if err == nil {
			t.Fatalf("failure after %d bytes: Put succeeded", after)
		}
		if got := readBlob(t, s, "jobs/f/input"); string(got) != "old" {
			t.Fatalf("failure after %d bytes: blob is now %d bytes", after, len(got))
		}
	}
	for u := range s.client.ListIncompleteUploads(ctx, s.bucket, "", true) {
		if u.Err != nil {
			t.Fatal(u.Err)
		}
		t.Errorf("multipart upload left behind: %s %s", u.Key, u.UploadID)
	}
}

func TestS3CancelledPutStops(t *testing.T) {
	s := newS3(t, s3Config(t))
	cctx, cancel := context.WithCancel(ctx)
	var sent atomic.Int64
	endless := readerFunc(func(p []byte) (int, error) {
		if sent.Add(int64(len(p))) > 30<<20 {
			cancel()
		}
		return len(p), nil
	})
	if _, err := s.Put(cctx, "jobs/c/input", endless); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
	if _, err := s.Open(ctx, "jobs/c/input"); !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("cancelled upload is visible: %v", err)
	}
}

// TestS3SharedBetweenProcesses: two stores on one bucket (two processes)
// see each other's blobs; stores with different prefixes in the same
// bucket do not, and DeletePrefix stays inside its own prefix.
func TestS3SharedBetweenProcesses(t *testing.T) {
	c := s3Config(t)
	a, b := newS3(t, c), newS3(t, c)
	if _, err := a.Put(ctx, "jobs/x/input", strings.NewReader("from a")); err != nil {
		t.Fatal(err)
	}
	if got := readBlob(t, b, "jobs/x/input"); string(got) != "from a" {
		t.Fatalf("b read %q", got)
	}
	c1, c2 := c, c
	c1.Prefix, c2.Prefix = "tenant1", "tenant2"
	p1, p2 := newS3(t, c1), newS3(t, c2)
	p1.Put(ctx, "jobs/x/input", strings.NewReader("one"))
	p2.Put(ctx, "jobs/x/input", strings.NewReader("two"))
	if err := p1.DeletePrefix(ctx, "jobs/"); err != nil {
		t.Fatal(err)
	}
	if _, err := p1.Open(ctx, "jobs/x/input"); !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("p1 after DeletePrefix: %v", err)
	}
	if got := readBlob(t, p2, "jobs/x/input"); string(got) != "two" {
		t.Fatalf("p2 read %q", got)
	}
	if got := readBlob(t, a, "jobs/x/input"); string(got) != "from a" {
		t.Fatalf("unprefixed read %q", got)
	}
	if got := objects(t, a); strings.Join(got, ",") != "jobs/x/input,tenant2/jobs/x/input" {
		t.Fatalf("bucket holds %v", got)
	}
}

// TestS3DeletePrefixManyObjects crosses the 1000-key page of a listing.
func TestS3DeletePrefixManyObjects(t *testing.T) {
	s := newS3(t, s3Config(t))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 16)
	for i := range 1100 {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if _, err := s.Put(ctx, "jobs/many/"+itoa(int64(i)), strings.NewReader("x")); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	s.Put(ctx, "jobs/keep/input", strings.NewReader("k"))
	if err := s.DeletePrefix(ctx, "jobs/many/"); err != nil {
		t.Fatal(err)
	}
	if got := objects(t, s); len(got) != 1 || got[0] != "jobs/keep/input" {
		t.Fatalf("left %d objects", len(got))
	}
}

func TestNewS3(t *testing.T) {
	c := s3Config(t)
	// A missing bucket is created; a second process finds it.
	newS3(t, c)
	newS3(t, c)
	bad := c
	bad.SecretKey = "wrong"
	if _, err := NewS3(ctx, bad); err == nil {
		t.Error("wrong secret accepted at start")
	}
	down := c
	down.Endpoint = freeAddrForTest(t)
	// minio-go retries a refused connection for seconds; the start-up
	// context bounds that.
	dctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if _, err := NewS3(dctx, down); err == nil {
		t.Error("unreachable endpoint accepted at start")
	}
}

// TestS3PutStreams uploads 60 MB from a generator and samples the heap:
// with 5 MiB parts it must never come near the document's size.
func TestS3PutStreams(t *testing.T) {
	c := s3Config(t)
	c.PartSize = 5 << 20
	s := newS3(t, c)
	const size = 60 << 20
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > peak.Load() {
				peak.Store(m.HeapAlloc)
			}
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	h := sha256.New()
	src := io.TeeReader(io.LimitReader(pseudoRandom{}, size), h)
	n, err := s.Put(ctx, "jobs/big/input", src)
	close(stop)
	<-sampled
	if err != nil || n != size {
		t.Fatalf("put: %d %v", n, err)
	}
	grew := int64(peak.Load()) - int64(base.HeapAlloc)
	t.Logf("heap grew by at most %.1f MiB for a %d MiB upload", float64(grew)/(1<<20), size>>20)
	if grew > 40<<20 {
		t.Errorf("heap grew by %d MiB: the upload is buffered", grew>>20)
	}
	b, err := s.Open(ctx, "jobs/big/input")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	h2 := sha256.New()
	io.Copy(h2, b)
	if !bytes.Equal(h.Sum(nil), h2.Sum(nil)) || b.Size() != size {
		t.Fatal("big blob differs")
	}
}

// pseudoRandom is a cheap endless byte source (incompressible enough).
type pseudoRandom struct{}

func (pseudoRandom) Read(p []byte) (int, error) {
	x := uint64(len(p))*0x9E3779B97F4A7C15 + 1
	for i := range p {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		p[i] = byte(x)
	}
	return len(p), nil
}

func TestParseS3URL(t *testing.T) {
	c, err := ParseS3URL("s3://docs/dragoman/prod?endpoint=http://127.0.0.1:7070&region=eu-west-1&path_style=true&part_size=8388608")
	if err != nil {
		t.Fatal(err)
	}
	want := S3Config{Endpoint: "127.0.0.1:7070", Region: "eu-west-1", Bucket: "docs", Prefix: "dragoman/prod", PathStyle: true, PartSize: 8 << 20}
	if c != want {
		t.Fatalf("got %+v", c)
	}
	c, err = ParseS3URL("s3://docs")
	if err != nil || c.Endpoint != "s3.amazonaws.com" || !c.Secure || c.PathStyle {
		t.Fatalf("AWS default: %+v %v", c, err)
	}
	for _, bad := range []string{"docs", "http://docs", "s3:///x", "s3://k:s@docs", "s3://docs?endpoint=ftp://x",
		"s3://docs?endpoint=127.0.0.1:7070", "s3://docs?path_style=maybe", "s3://docs?part_size=100", "s3://docs/a/../b"} {
		if _, err := ParseS3URL(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}
