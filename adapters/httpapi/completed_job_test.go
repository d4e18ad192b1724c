package httpapi

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/docx/docxbuild"
	"github.com/dragoman-translate/dragoman/adapters/sqlstore"
	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/output"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/review"
	"github.com/dragoman-translate/dragoman/core/segment"
)

// seedCompletedJob stores what a completed English→Spanish job of alice's
// keeps, as the pipeline leaves it: a .docx of one paragraph per source
// (read by the real engine), its segments translated as targets with
// flags[i] on the i-th (nil: none), and the output rendered from them.
func seedCompletedJob(t *testing.T, st *sqlstore.Store, blobs ports.BlobStore, docs ports.DocumentEngine, id string, sources, targets []string, flags [][]review.Flag) {
	t.Helper()
	var body []docxbuild.Block
	for _, s := range sources {
		body = append(body, docxbuild.Plain(s))
	}
	src := (&docxbuild.Doc{Body: body}).Bytes()
	if _, err := blobs.Put(bg, job.InputKey(id), bytes.NewReader(src)); err != nil {
		t.Fatal(err)
	}
	doc := segment.Document{Format: "docx"}
	if _, err := docs.Read(bg, output.NewBytes(src), func(u []segment.Unit) error { doc.Units = append(doc.Units, u...); return nil }); err != nil {
		t.Fatal(err)
	}
	n := 0
	doc.EachSegment(func(_ *segment.Unit, s *segment.Segment) {
		if n < len(targets) {
			s.Target = targets[n]
		}
		if n < len(flags) {
			s.Flags = flags[n]
		}
		n++
	})
	if n != len(sources) {
		t.Fatalf("the document has %d segments, want %d", n, len(sources))
	}
	now := time.Now()
	j := job.New(id, "alice", now)
	j.Status, j.CompletedAt, j.Format, j.OriginalName = job.Completed, &now, "docx", "fruit.docx"
	j.SourceLang, j.DetectedLang, j.TargetLang = "en", "en", "es"
	seg, _ := json.Marshal(&doc)
	if _, err := blobs.Put(bg, job.SegmentsKey(j), bytes.NewReader(seg)); err != nil {
		t.Fatal(err)
	}
	if _, err := output.Rebuild(bg, blobs, docs, output.NewBytes(src), &doc, ports.LayoutRequest{SourceLang: "en", TargetLang: "es"}, job.OutputKey(j)); err != nil {
		t.Fatal(err)
	}
	if err := st.CreateJob(bg, j); err != nil {
		t.Fatal(err)
	}
}
