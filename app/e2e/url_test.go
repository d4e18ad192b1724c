package e2e

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"
)

func docServer(t *testing.T) *httptest.Server {
	doc, err := os.ReadFile(englishDocx)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/files/report.docx":
			w.Write(doc)
		case "/notes.txt":
			w.Write([]byte("plain text is not a document"))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func postURL(s *server, key, url string) response {
	body := `{"url":"` + url + `","target_lang":"Spanish","source_lang":"English"}`
	return s.do("POST", "/v1/translate-url", key, strings.NewReader(body), "application/json")
}

// TestTranslateURL fetches a document from a local server, which only the
// documented --allow-private-urls setting permits.
func TestTranslateURL(t *testing.T) {
	docs := docServer(t)
	s := startServer(t, []string{"--allow-private-urls"})
	_, key, _ := s.account("pro")

	r := postURL(s, key, docs.URL+"/files/report.docx")
	if r.status != 202 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	acc := r.json(t)
	if _, has := acc["rtl_fidelity"]; has {
		t.Error("translate-url's 202 documents no rtl_fidelity")
	}
	j := s.waitJob(key, acc["job_id"].(string), time.Minute)
	if j["status"] != "completed" || j["original_name"] != "report.docx" {
		t.Fatalf("job: %v", j)
	}
	problem(t, postURL(s, key, docs.URL+"/notes.txt"), 400)
	problem(t, postURL(s, key, docs.URL+"/missing.docx"), 400)
	problem(t, postURL(s, key, "ftp://example.org/a.docx"), 400)
	problem(t, postURL(s, key, "not a url"), 400)
}

// TestTranslateURLRefusesPrivateAddresses: by default the fetcher refuses
// loopback and plain http, whatever the name resolves to.
func TestTranslateURLRefusesPrivateAddresses(t *testing.T) {
	docs := docServer(t)
	s := startServer(t, nil)
	_, key, _ := s.account("pro")
	for _, u := range []string{
		docs.URL + "/files/report.docx",                                 // http
		strings.Replace(docs.URL, "http://", "https://", 1) + "/x.docx", // loopback
		"https://localhost:" + docs.URL[strings.LastIndex(docs.URL, ":")+1:] + "/x.docx",
		"https://169.254.169.254/latest/meta-data",
	} {
		p := problem(t, postURL(s, key, u), 400)
		if strings.Contains(p["message"].(string), "plain text") {
			t.Errorf("%s was fetched", u)
		}
	}
}
