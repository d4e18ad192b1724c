package httpapi

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"mime/multipart"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/dragoman-translate/dragoman/adapters/blobstore"
	"github.com/dragoman-translate/dragoman/adapters/docx"
	"github.com/dragoman-translate/dragoman/adapters/langdetect"
	"github.com/dragoman-translate/dragoman/adapters/urlfetch"
	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/segment"
	"github.com/dragoman-translate/dragoman/core/service"
)

// countingDetector is the real detector, counted.
type countingDetector struct {
	d *langdetect.Detector
	n atomic.Int32
}

func (c *countingDetector) Detect(text string) (string, float64) {
	c.n.Add(1)
	return c.d.Detect(text)
}
func (c *countingDetector) Mix(text string) ([]string, []float64) { return c.d.Mix(text) }

// countingDocs is the real .docx engine, its reads counted.
type countingDocs struct {
	e     *docx.Engine
	reads atomic.Int32
}

func (c *countingDocs) Read(ctx context.Context, src ports.Blob, emit func([]segment.Unit) error) (ports.Source, error) {
	c.reads.Add(1)
	return c.e.Read(ctx, src, emit)
}

// batchEnv is the API over real SQLite, a local blob store, the real
// .docx engine and language detector, URL fetches allowed on loopback,
// served on loopback; the pipeline
// does not run (the bus keeps the events).
type batchEnv struct {
	*webhookEnv
	blobs *blobstore.Local
	det   *countingDetector
	docs  *countingDocs
	docx  []byte
}

func newBatchEnv(t *testing.T) *batchEnv {
	e := newWebhookEnv(t, true)
	blobs, err := blobstore.NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	b := &batchEnv{webhookEnv: e, blobs: blobs, det: &countingDetector{d: langdetect.New()}, docs: &countingDocs{e: docx.New(nil)}}
	cfg := service.DefaultConfig
	cfg.AllowPrivateURLs = true
	svc := testPorts{config: cfg, store: e.store, blobs: blobs, bus: quietBus{}, jobCatalog: e.store,
		fetcher: urlfetch.New(urlfetch.Config{AllowPrivate: true}), docs: b.docs, detector: b.det, batches: e.store}.useCases()
	e.srv.Close()
	e.srv = httptest.NewServer(New(svc, nil).Handler())
	t.Cleanup(e.srv.Close)
	if b.docx, err = os.ReadFile(filepath.Join("..", "..", "testdata", "e2e", "english.docx")); err != nil {
		t.Fatal(err)
	}
	return b
}

// upload posts name with content and fields to /v1/translate as acct.
func (b *batchEnv) upload(acct, name string, content []byte, fields map[string]string) (int, string) {
	b.t.Helper()
	return b.uploadTo("/v1/translate", acct, name, content, fields)
}

// uploadTo posts name with content and fields to path as acct.
func (b *batchEnv) uploadTo(path, acct, name string, content []byte, fields map[string]string) (int, string) {
	b.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range fields {
		mw.WriteField(k, v)
	}
	fw, _ := mw.CreateFormFile("file", name)
	fw.Write(content)
	mw.Close()
	g := &glossaryEnv{webhookEnv: b.webhookEnv}
	return g.raw(acct, "POST", path, mw.FormDataContentType(), buf.Bytes(), nil)
}

// files lists what the blob store holds.
func (b *batchEnv) files() []string {
	var out []string
	filepath.WalkDir(b.blobs.Root(), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(b.blobs.Root(), p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out
}

func (b *batchEnv) jobs(acct string) []*job.Job {
	b.t.Helper()
	var list JobList
	if code := b.do(acct, "GET", "/v1/jobs?limit=100", nil, &list); code != 200 {
		b.t.Fatalf("GET /v1/jobs: %d", code)
	}
	var out []*job.Job
	for _, s := range list.Jobs {
		j, err := b.store.GetJob(bg, s.JobID)
		if err != nil {
			b.t.Fatal(err)
		}
		out = append(out, j)
	}
	return out
}

// One upload to three targets with the source left to detection: the
// document is read once and its language detected once for the batch, and
// every job carries that language, so no job's pass detects it again
// (core/pipeline TestPassTakesTheBatchsDetectedSource). Only the jobs'
// own copies stay stored.
func TestBatchReadsAndDetectsOnce(t *testing.T) {
	b := newBatchEnv(t)
	code, body := b.upload("alice", "report.docx", b.docx, map[string]string{"target_langs": "Spanish,Urdu,French"})
	if code != 202 {
		t.Fatalf("batch: %d %s", code, body)
	}
	var acc BatchAccepted
	json.Unmarshal([]byte(body), &acc)
	if len(acc.Jobs) != 3 {
		t.Fatalf("batch body %s", body)
	}
	if n, r := b.det.n.Load(), b.docs.reads.Load(); n != 1 || r != 1 {
		t.Errorf("%d detections and %d reads for a batch of 3, want 1 and 1", n, r)
	}
	var want []string
	for _, a := range acc.Jobs {
		j, err := b.store.GetJob(bg, a.JobID)
		if err != nil {
			t.Fatal(err)
		}
		if j.BatchID != acc.BatchID || j.SourceLang != "auto" || j.DetectedLang != "en" {
			t.Errorf("job %s: batch %q, source %q, detected %q; want the batch's English", j.ID, j.BatchID, j.SourceLang, j.DetectedLang)
		}
		want = append(want, "jobs/"+j.ID+"/input")
	}
	slices.Sort(want)
	if got := b.files(); !slices.Equal(got, want) {
		t.Errorf("stored %q, want only the jobs' inputs %q", got, want)
	}
}

// A single upload with the source left to detection is detected once, at
// submission, as its pass would detect it, and the job carries the
// language (and what the detection warned), so its pass takes it and
// translates while the document is still being read.
func TestAnUploadIsDetectedOnce(t *testing.T) {
	b := newBatchEnv(t)
	code, body := b.upload("alice", "report.docx", b.docx, map[string]string{"target_lang": "Spanish"})
	if code != 202 {
		t.Fatalf("upload: %d %s", code, body)
	}
	var acc struct {
		JobID string `json:"job_id"`
	}
	json.Unmarshal([]byte(body), &acc)
	j, err := b.store.GetJob(bg, acc.JobID)
	if err != nil {
		t.Fatal(err)
	}
	if j.SourceLang != "auto" || j.DetectedLang != "en" {
		t.Errorf("source %q, detected %q; want auto, detected English at submission", j.SourceLang, j.DetectedLang)
	}
	if n := b.det.n.Load(); n != 1 {
		t.Errorf("%d detections at submission, want 1", n)
	}
}

// A batch whose words do not all fit in what is left of the month is 402
// before anything starts: no job, and nothing left in the blob store.
func TestBatchOverTheQuotaLeavesNothing(t *testing.T) {
	b := newBatchEnv(t)
	limit := int64(40) // english.docx has 31 words: one target fits, two do not
	a := &account.Account{ID: "carol", Name: "carol", PlanName: "starter", LimitWordsOverride: &limit, CreatedAt: time.Now()}
	if err := b.store.CreateAccount(bg, a); err != nil {
		t.Fatal(err)
	}
	plain, k, _ := account.NewKey(uuid.NewString(), "carol", time.Now())
	if err := b.store.CreateKey(bg, k); err != nil {
		t.Fatal(err)
	}
	b.keys["carol"] = plain
	code, body := b.upload("carol", "report.docx", b.docx, map[string]string{"target_langs": "Spanish,Urdu", "source_lang": "English"})
	if code != 402 || !contains(body, "2 targets need 62 words, but only 40") {
		t.Fatalf("over the quota: %d %s", code, body)
	}
	if jobs := b.jobs("carol"); len(jobs) != 0 {
		t.Errorf("%d jobs made by a refused batch", len(jobs))
	}
	if files := b.files(); len(files) != 0 {
		t.Errorf("a refused batch left %q", files)
	}
}

// zipOf makes a .zip of the entries, in order (name, content).
func zipOf(t *testing.T, entries ...[2]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		w, err := zw.Create(e[0])
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, e[1])
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func contains(s, sub string) bool { return bytes.Contains([]byte(s), []byte(sub)) }
