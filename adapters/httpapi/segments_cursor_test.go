package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/google/uuid"

	"github.com/dragoman-translate/dragoman/adapters/docx"
	"github.com/dragoman-translate/dragoman/adapters/rtl"
	"github.com/dragoman-translate/dragoman/core/review"
	"github.com/dragoman-translate/dragoman/core/service"
)

// A person pages through the sentences to check and corrects one between
// two pages, which takes it out of the list: the next page goes on after
// the last sentence shown, in either order, and skips none.
func TestSegmentPagesSkipNoneAcrossAnEdit(t *testing.T) {
	e, blobs, bus := newJobsEnv(t)
	docs := docx.New(rtl.New(rtl.Options{Coverage: rtl.KnownFonts{}}))
	svc := testPorts{config: service.DefaultConfig, store: e.store, jobCatalog: e.store, blobs: blobs, bus: bus}.useCases()
	svc.Documents.Docs = docs
	e.srv = httptest.NewServer(New(svc, nil).Handler())
	t.Cleanup(e.srv.Close)

	var sources, targets []string
	var flags [][]review.Flag
	for i := 1; i <= 5; i++ {
		sources = append(sources, fmt.Sprintf("Apple %d.", i))
		targets = append(targets, fmt.Sprintf("Manzana %d.", i))
		flags = append(flags, []review.Flag{{Kind: review.Numbers, Severity: review.High, Message: "Numbers differ from the original."}})
	}
	for _, order := range []string{"document", "score"} {
		id := uuid.NewString()
		seedCompletedJob(t, e.store, blobs, docs, id, sources, targets, flags)
		page := func(cursor string) SegmentList {
			t.Helper()
			q := url.Values{"to_check": {"true"}, "limit": {"2"}, "order": {order}}
			if cursor != "" {
				q.Set("cursor", cursor)
			}
			var l SegmentList
			if st := e.do("alice", http.MethodGet, "/v1/jobs/"+id+"/segments?"+q.Encode(), nil, &l); st != http.StatusOK {
				t.Fatalf("%s order: segments %d", order, st)
			}
			return l
		}
		first := page("")
		if ids(first) != "1,2" || first.NextCursor == nil {
			t.Fatalf("%s order: first page %s", order, ids(first))
		}
		body, _ := json.Marshal(map[string]string{"target": "La manzana 1."})
		req, _ := http.NewRequest(http.MethodPatch, e.srv.URL+"/v1/jobs/"+id+"/segments/1", bytes.NewReader(body))
		req.Header.Set("X-API-Key", e.keys["alice"])
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s order: edit %d", order, resp.StatusCode)
		}
		next := page(*first.NextCursor)
		if ids(next) != "3,4" || next.Matching != 4 {
			t.Errorf("%s order: after the edit the next page is %s of %d, want 3,4 of 4", order, ids(next), next.Matching)
		}
	}
	if st := e.do("alice", http.MethodGet, "/v1/jobs/"+uuid.NewString()+"/segments?cursor=bm9wZQ", nil, nil); st != http.StatusUnprocessableEntity && st != http.StatusNotFound {
		t.Errorf("a cursor that is not one: %d", st)
	}
}

func ids(l SegmentList) string {
	var b bytes.Buffer
	for i, s := range l.Segments {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(s.ID)
	}
	return b.String()
}
