package e2e

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/docx/docxbuild"
)

// reviewDoc is an English document whose translation by Apertium has
// something to check: words Apertium does not know, a link, a number.
func reviewDoc() []byte {
	d := &docxbuild.Doc{Body: []docxbuild.Block{
		docxbuild.Plain("The frobnicator zorbles quickly."),
		docxbuild.P(docxbuild.Text("Read "), docxbuild.Link("the annual report", "https://example.org/report"), docxbuild.Text(" before the meeting.")),
		docxbuild.Plain("We sold 42 houses in the city."),
		docxbuild.P(docxbuild.Bold("The red car"), docxbuild.Text(" is in the garage.")),
	}}
	return d.Bytes()
}

// segmentsOf lists a job's segments through the API.
func segmentsOf(t *testing.T, s *server, key, id, query string) (list struct {
	Segments []struct {
		ID, Location, Source, Target string
		Flags                        []struct{ Kind, Severity, Message string }
		ToCheck                      bool `json:"to_check"`
		Edited                       bool
	}
	NextCursor *string `json:"next_cursor"`
	Revision   int
	Review     struct {
		Summary string
		ByKind  map[string]int `json:"by_kind"`
	}
}, etag string) {
	t.Helper()
	r := s.getPatiently("/v1/jobs/"+id+"/segments"+query, key)
	if r.status != 200 {
		t.Fatalf("segments%s: %d %s", query, r.status, r.body)
	}
	if err := json.Unmarshal(r.body, &list); err != nil {
		t.Fatal(err)
	}
	return list, r.header.Get("ETag")
}

func patchSegment(s *server, key, id, seg, ifMatch, target string) response {
	body, _ := json.Marshal(map[string]string{"target": target})
	req, _ := http.NewRequest(http.MethodPatch, s.url("/v1/jobs/"+id+"/segments/"+seg), bytes.NewReader(body))
	req.Header.Set("X-API-Key", key)
	req.Header.Set("Content-Type", "application/json")
	if ifMatch != "" {
		req.Header.Set("If-Match", ifMatch)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	b.ReadFrom(resp.Body)
	return response{resp.StatusCode, resp.Header, b.Bytes()}
}

// Through the API and the CLI a person sees which sentences to check and
// why, corrects one (a revision: the download holds it, the memory has
// it), and a stale edit or XLIFF file cannot undo it.
func TestReviewThroughTheAPI(t *testing.T) {
	s := startServer(t, nil, "DRAGOMAN_ENGINES=apertium")
	_, key, _ := s.account("pro")
	acc := s.upload(key, "review.docx", bytes.NewReader(reviewDoc()), map[string]string{"target_lang": "Spanish", "source_lang": "English"})
	id := acc.json(t)["job_id"].(string)
	j := s.waitJob(key, id, 3*time.Minute)
	if j["status"] != "completed" {
		t.Fatalf("job: %v", j)
	}
	rv, _ := j["review"].(map[string]any)
	if rv == nil || !strings.Contains(rv["summary"].(string), "of 4 sentences to check") {
		t.Fatalf("review %v", j["review"])
	}
	for _, w := range j["warnings"].([]any) {
		if strings.Contains(w.(string), "segment ") || strings.Contains(w.(string), "code ") {
			t.Errorf("an internal message among the warnings: %q", w)
		}
	}

	list, etag := segmentsOf(t, s, key, id, "?to_check=true&order=score")
	if etag != `"0"` || list.Revision != 0 || len(list.Segments) == 0 {
		t.Fatalf("to check: etag %s, %+v", etag, list)
	}
	unknown := list.Segments[0]
	found := false
	for _, f := range unknown.Flags {
		found = found || f.Kind == "unknown_words" && strings.Contains(f.Message, "frobnicator")
	}
	if !found || unknown.ID != "1" || unknown.Location != "body" || strings.Contains(unknown.Target, "*") {
		t.Fatalf("the sentence with unknown words: %+v", unknown)
	}
	byKind, _ := segmentsOf(t, s, key, id, "?kind=unknown_words")
	if len(byKind.Segments) != 1 || byKind.Segments[0].ID != "1" {
		t.Errorf("kind=unknown_words: %+v", byKind.Segments)
	}
	all, _ := segmentsOf(t, s, key, id, "?limit=2")
	if len(all.Segments) != 2 || all.NextCursor == nil {
		t.Fatalf("a page of 2: %+v", all)
	}
	rest, _ := segmentsOf(t, s, key, id, "?limit=2&cursor="+*all.NextCursor)
	if len(rest.Segments) != 2 || rest.Segments[0].ID != "3" || rest.NextCursor != nil {
		t.Fatalf("the next page: %+v", rest)
	}
	link := all.Segments[1]

	// The XLIFF of revision 0, before any edit.
	x := s.do("GET", "/v1/jobs/"+id+"/xliff?version=1.2", key, nil, "")
	if x.status != 200 || !contains(x.body, "revision 0") {
		t.Fatalf("xliff: %d", x.status)
	}

	// Tags are checked; the revision is checked.
	if r := patchSegment(s, key, id, link.ID, `"0"`, "Lea el informe anual antes de la reunión."); r.status != 422 || !contains(r.body, `g id=\"1\"`) {
		t.Errorf("a lost link tag: %d %s", r.status, r.body)
	}
	if r := patchSegment(s, key, id, "1", `"7"`, "El aparato funciona deprisa."); r.status != 412 || !contains(r.body, "stale_revision") {
		t.Errorf("a stale If-Match: %d %s", r.status, r.body)
	}
	if r := patchSegment(s, key, id, "99", "", "x"); r.status != 404 {
		t.Errorf("no such segment: %d %s", r.status, r.body)
	}
	r := patchSegment(s, key, id, "1", `"0"`, "El aparato funciona deprisa.")
	if r.status != 200 || r.header.Get("ETag") != `"1"` {
		t.Fatalf("edit: %d %s", r.status, r.body)
	}
	var edited struct {
		Segment struct {
			Target string
			Edited bool
			Flags  []struct{ Kind string }
		}
		Revision int
	}
	json.Unmarshal(r.body, &edited)
	if edited.Revision != 1 || !edited.Segment.Edited || len(edited.Segment.Flags) != 0 {
		t.Errorf("edited: %+v", edited)
	}
	out := s.do("GET", "/v1/jobs/"+id+"/download", key, nil, "")
	if _, text := docxRuns(t, out.body, "<w:b/>"); out.status != 200 || !strings.Contains(text, "El aparato funciona deprisa.") {
		t.Errorf("the download lacks the edit: %d %q", out.status, text)
	}
	if marked, _ := docxRuns(t, out.body, "<w:b/>"); len(marked) == 0 {
		t.Errorf("the bold of another sentence was lost")
	}

	// The XLIFF of revision 0 would undo the edit where it changed the
	// sentence too; left as exported, the edit stays.
	changed := bytes.Replace(x.body, []byte("El frobnicator"), []byte("El cosa"), 1)
	if r := s.do("POST", "/v1/jobs/"+id+"/xliff", key, bytes.NewReader(changed), "application/xliff+xml"); r.status != 412 || !contains(r.body, "segment 1") {
		t.Errorf("a stale XLIFF changing the edited sentence: %d %s", r.status, r.body)
	}
	if r := s.do("POST", "/v1/jobs/"+id+"/xliff", key, bytes.NewReader(x.body), "application/xliff+xml"); r.status != 200 {
		t.Errorf("a stale XLIFF leaving the sentence as exported: %d %s", r.status, r.body)
	}
	after, etag := segmentsOf(t, s, key, id, "")
	if after.Segments[0].Target != "El aparato funciona deprisa." || etag != `"2"` {
		t.Errorf("after the stale import: %q, etag %s", after.Segments[0].Target, etag)
	}

	// The CLI prints the same.
	cli := s.cliCmd(key, "review", id, "--all")
	b, err := cli.CombinedOutput()
	if err != nil || !strings.Contains(string(b), "El aparato funciona deprisa.") || !strings.Contains(string(b), "revision 2") {
		t.Errorf("dragoman review: %v\n%s", err, b)
	}
	cli = s.cliCmd(key, "review", id, "--json")
	b, err = cli.Output()
	var printed struct {
		Revision int
		Segments []json.RawMessage
	}
	if err != nil || json.Unmarshal(b, &printed) != nil || printed.Revision != 2 {
		t.Errorf("dragoman review --json: %v\n%s", err, b)
	}
	cli = s.cliCmd(key, "review", "edit", id, "3", "Vendimos 42 casas en la ciudad.", "--revision", "1")
	if b, err := cli.CombinedOutput(); err == nil || !strings.Contains(string(b), "revision") {
		t.Errorf("dragoman review edit on a stale revision: %v\n%s", err, b)
	}
}
