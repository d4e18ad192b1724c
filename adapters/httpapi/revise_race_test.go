package httpapi

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/dragoman-translate/dragoman/adapters/blobstore"
	"github.com/dragoman-translate/dragoman/adapters/docx"
	"github.com/dragoman-translate/dragoman/adapters/rtl"
	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/service"
)

// gatedBlobs holds the first write (or, with reads, the first read)
// through it until opened: the moment one API process has made its
// revision's files and not yet saved it, or has read a job and not yet
// its files.
type gatedBlobs struct {
	ports.BlobStore
	reads   bool
	once    sync.Once
	waiting chan struct{} // closed when the first write waits
	open    chan struct{} // closed to let it go on
}

func (g *gatedBlobs) wait() {
	g.once.Do(func() {
		close(g.waiting)
		<-g.open
	})
}

func (g *gatedBlobs) Put(ctx context.Context, key string, r io.Reader) (int64, error) {
	if !g.reads {
		g.wait()
	}
	return g.BlobStore.Put(ctx, key, r)
}

func (g *gatedBlobs) Open(ctx context.Context, key string) (ports.Blob, error) {
	if g.reads {
		g.wait()
	}
	return g.BlobStore.Open(ctx, key)
}

// twoAPIs is two API processes (each its own use cases, as two processes
// have) over one SQLite database and one blob folder, with a completed
// English→Spanish job of two sentences; process A's first blob write
// waits at a gate.
type twoAPIs struct {
	*webhookEnv
	a, b  *httptest.Server
	gate  *gatedBlobs // A's
	blobs *blobstore.Local
	id    string
}

func newTwoAPIs(t *testing.T) *twoAPIs { return newAPIs(t, false) }

// newAPIs is newTwoAPIs; with reads, A's first read waits at the gate
// instead of its first write.
func newAPIs(t *testing.T, reads bool) *twoAPIs {
	e, blobs, bus := newJobsEnv(t)
	docs := docx.New(rtl.New(rtl.Options{Coverage: rtl.KnownFonts{}}))
	gate := &gatedBlobs{BlobStore: blobs, reads: reads, waiting: make(chan struct{}), open: make(chan struct{})}
	server := func(b ports.BlobStore) *httptest.Server {
		svc := testPorts{config: service.DefaultConfig, store: e.store, jobCatalog: e.store, blobs: b, bus: bus}.useCases()
		svc.Documents.Docs = docs
		srv := httptest.NewServer(New(svc, nil).Handler())
		t.Cleanup(srv.Close)
		return srv
	}
	w := &twoAPIs{webhookEnv: e, a: server(gate), b: server(blobs), gate: gate, blobs: blobs, id: uuid.NewString()}
	t.Cleanup(func() { // a failed test must not leave A's request waiting
		select {
		case <-gate.open:
		default:
			close(gate.open)
		}
	})

	seedCompletedJob(t, e.store, blobs, docs, w.id, []string{"One apple.", "Two pears."}, []string{"Una manzana.", "Dos peras."}, nil)
	return w
}

// edit sends a segment edit to srv as alice; ifMatch "" sends none.
func (w *twoAPIs) edit(srv *httptest.Server, n, target, ifMatch string) int {
	body, _ := json.Marshal(map[string]string{"target": target})
	req, _ := http.NewRequest(http.MethodPatch, srv.URL+"/v1/jobs/"+w.id+"/segments/"+n, bytes.NewReader(body))
	req.Header.Set("X-API-Key", w.keys["alice"])
	req.Header.Set("Content-Type", "application/json")
	if ifMatch != "" {
		req.Header.Set("If-Match", ifMatch)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		w.t.Error(err)
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// editRacing starts an edit through A, waits until A has made its files
// and not saved them, saves an edit of the same revision through B, then
// lets A go on; it returns both answers' statuses.
func (w *twoAPIs) editRacing(aTarget, aIfMatch, bTarget string) (a, b int) {
	done := make(chan int)
	go func() { done <- w.edit(w.a, "1", aTarget, aIfMatch) }()
	select {
	case <-w.gate.waiting:
	case <-time.After(2 * time.Minute):
		w.t.Fatal("A's edit never wrote a file")
	}
	b = w.edit(w.b, "2", bTarget, "0")
	close(w.gate.open)
	return <-done, b
}

// downloaded is the text of the job's download through srv.
func (w *twoAPIs) downloaded(srv *httptest.Server) string {
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/v1/jobs/"+w.id+"/download", nil)
	req.Header.Set("X-API-Key", w.keys["alice"])
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		w.t.Fatalf("download: %d %s", resp.StatusCode, raw)
	}
	zr, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		w.t.Fatal(err)
	}
	f, err := zr.Open("word/document.xml")
	if err != nil {
		w.t.Fatal(err)
	}
	defer f.Close()
	x, _ := io.ReadAll(f)
	return string(x)
}

// stored lists the job's blob keys (relative to its prefix).
func (w *twoAPIs) stored() []string {
	dir := filepath.Join(w.blobs.Root(), filepath.FromSlash(job.Prefix(w.id)))
	var keys []string
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			keys = append(keys, filepath.ToSlash(rel))
		}
		return nil
	})
	return keys
}

func (w *twoAPIs) job() *job.Job {
	j, err := w.store.GetJob(bg, w.id)
	if err != nil {
		w.t.Fatal(err)
	}
	return j
}

// Two API processes saving edits of the same revision at once: the one
// that saves second made its edit on a revision that is gone, so it is
// refused (412), and the job's files are all the first one's: the
// download, the segments and nothing left over of the refused edit.
func TestEditsSavedAtOnceInTwoProcessesDoNotMix(t *testing.T) {
	w := newTwoAPIs(t)
	a, b := w.editRacing("Una manzana roja.", "0", "Dos peras verdes.")
	if b != http.StatusOK || a != http.StatusPreconditionFailed {
		t.Fatalf("A answered %d (want 412), B %d (want 200)", a, b)
	}
	j := w.job()
	if j.Revision != 1 || j.Files == "" {
		t.Fatalf("revision %d in %q, want revision 1 in a folder of its own", j.Revision, j.Files)
	}
	for _, srv := range []*httptest.Server{w.a, w.b} {
		text := w.downloaded(srv)
		if !strings.Contains(text, "Dos peras verdes.") || strings.Contains(text, "roja") {
			t.Errorf("the download holds the refused edit or lacks the saved one: %s", text)
		}
	}
	var list SegmentList
	if st := w.do("alice", http.MethodGet, "/v1/jobs/"+w.id+"/segments", nil, &list); st != http.StatusOK || len(list.Segments) != 2 ||
		list.Segments[0].Target != "Una manzana." || list.Segments[1].Target != "Dos peras verdes." {
		t.Fatalf("segments %d %+v", st, list.Segments)
	}
	for _, k := range w.stored() {
		if k != "input" && !strings.HasPrefix(k, j.Files) {
			t.Errorf("%s is left over: the job's files are input and %s", k, j.Files)
		}
	}
}

// Without If-Match an edit applies to the latest revision: one saved in
// another process meanwhile is built on, not refused, and both edits are
// in the document.
func TestAnEditWithoutIfMatchBuildsOnOneSavedMeanwhile(t *testing.T) {
	w := newTwoAPIs(t)
	a, b := w.editRacing("Una manzana roja.", "", "Dos peras verdes.")
	if a != http.StatusOK || b != http.StatusOK {
		t.Fatalf("A answered %d, B %d; want 200 for both", a, b)
	}
	j := w.job()
	if j.Revision != 2 {
		t.Fatalf("revision %d, want 2", j.Revision)
	}
	text := w.downloaded(w.b)
	if !strings.Contains(text, "Una manzana roja.") || !strings.Contains(text, "Dos peras verdes.") {
		t.Fatalf("the download lacks an edit: %s", text)
	}
	for _, k := range w.stored() {
		if k != "input" && !strings.HasPrefix(k, j.Files) {
			t.Errorf("%s is left over: the job's files are input and %s", k, j.Files)
		}
	}
}

// A process that read the job just before another saved a revision, and
// so looks for the files that revision replaced, reads the new revision's
// instead of answering 410 for a job whose files are there.
func TestAReadRacingAnEditFindsTheNewRevision(t *testing.T) {
	w := newAPIs(t, true)
	done := make(chan SegmentList)
	go func() {
		var l SegmentList
		req, _ := http.NewRequest(http.MethodGet, w.a.URL+"/v1/jobs/"+w.id+"/segments", nil)
		req.Header.Set("X-API-Key", w.keys["alice"])
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Error(err)
			done <- l
			return
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			raw, _ := io.ReadAll(resp.Body)
			t.Errorf("segments read during an edit: %d %s", resp.StatusCode, raw)
		}
		json.NewDecoder(resp.Body).Decode(&l)
		done <- l
	}()
	select {
	case <-w.gate.waiting:
	case <-time.After(2 * time.Minute):
		t.Fatal("A never read the job's files")
	}
	if st := w.edit(w.b, "2", "Dos peras verdes.", "0"); st != http.StatusOK {
		t.Fatalf("B's edit: %d", st)
	}
	close(w.gate.open)
	l := <-done
	if l.Revision != 1 || len(l.Segments) != 2 || l.Segments[1].Target != "Dos peras verdes." {
		t.Fatalf("A read revision %d: %+v", l.Revision, l.Segments)
	}
}
