package e2e

import (
	"encoding/json"
	"html"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"
)

// libreTranslate is a stand-in LibreTranslate server (its documented wire
// format: GET /languages, POST /translate with q as an array of HTML) that
// counts the texts it is asked to translate and their characters, markup
// excluded.
func libreTranslate(t *testing.T) (srv *httptest.Server, texts, chars *atomic.Int64) {
	texts, chars = &atomic.Int64{}, &atomic.Int64{}
	tag := regexp.MustCompile(`<[^>]*>`)
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/languages":
			w.Write([]byte(`[{"code":"en","name":"English","targets":["es"]},{"code":"es","name":"Spanish","targets":["en"]}]`))
		case "/translate":
			var req struct {
				Q []string `json:"q"`
			}
			if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
				w.WriteHeader(http.StatusBadRequest)
				w.Write([]byte(`{"error":"bad JSON"}`))
				return
			}
			texts.Add(int64(len(req.Q)))
			for _, q := range req.Q {
				chars.Add(int64(utf8.RuneCountInString(html.UnescapeString(tag.ReplaceAllString(q, "")))))
			}
			out := make([]string, len(req.Q))
			for i, q := range req.Q {
				out[i] = "ES " + q
			}
			json.NewEncoder(w).Encode(map[string]any{"translatedText": out})
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, texts, chars
}

// A quote calls no engine, its words are the words the job then counts
// and charges, and its engine characters are those the engine is then
// sent, for documents whose text is not all in the body (headers and
// footers, notes, text boxes, comments, tracked changes, a converted .odt).
func TestQuoteWordsAreTheWordsCharged(t *testing.T) {
	lt, texts, chars := libreTranslate(t)
	s := startServer(t, nil, "DRAGOMAN_ENGINES=libretranslate", "DRAGOMAN_LIBRETRANSLATE_BASE_URL="+lt.URL)
	acct, key, _ := s.account("starter")
	s.admin("account", "set-plan", "--account", acct, "--plan", "starter", "--requests-per-minute", "1000") // the test polls
	fields := map[string]string{"target_lang": "Spanish", "source_lang": "English"}
	used := func() float64 { return s.getPatiently("/v1/usage", key).json(t)["used_words"].(float64) }
	for _, name := range []string{
		"docx/aspose-Header_and_footer_types.docx", "docx/aspose-Footnotes_and_endnotes.docx", "docx/aspose-TextBoxes.docx",
		"docx/pandoc-comments.docx", "docx/oxpt-RP001-Tracked-Revisions-01.docx", "docx/tika-testWORD_various.docx",
		"odt/" + firstODT(t),
	} {
		path := filepath.Join(corpusDir, name)
		r := s.uploadFileTo("/v1/quote", key, path, fields)
		if r.status != http.StatusOK {
			t.Fatalf("%s: quote %d %s", name, r.status, r.body)
		}
		q := r.json(t)
		if n := texts.Load(); n != 0 {
			t.Fatalf("%s: the quote sent %d texts to the engine", name, n)
		}
		target := q["targets"].([]any)[0].(map[string]any)
		if q["words"].(float64) > 0 && target["engine_characters"].(float64) == 0 {
			t.Errorf("%s: %v words but no engine characters: %v", name, q["words"], q)
		}

		before := used()
		r = s.uploadFile(key, path, fields)
		if r.status != http.StatusAccepted {
			t.Fatalf("%s: translate %d %s", name, r.status, r.body)
		}
		j := s.waitJob(key, r.json(t)["job_id"].(string), 3*time.Minute)
		if j["status"] != "completed" {
			t.Fatalf("%s: job %v", name, j)
		}
		charged := used() - before
		if j["total_words"] != q["words"] || charged != q["words"] || q["charged_words"] != q["words"] {
			t.Errorf("%s: quoted %v words, the job counted %v and charged %v", name, q["words"], j["total_words"], charged)
		}
		if sent := texts.Swap(0); q["words"].(float64) > 0 && sent == 0 {
			t.Errorf("%s: the job sent nothing to the engine (the stand-in is not the engine?)", name)
		}
		if sent := chars.Swap(0); float64(sent) != target["engine_characters"] {
			t.Errorf("%s: quoted %v engine characters, the engine was sent %d", name, target["engine_characters"], sent)
		}
		t.Logf("%-45s %6.0f words quoted and charged, %6.0f engine characters quoted", name, q["words"], target["engine_characters"])
	}
}

// firstODT is the first .odt of the corpus (converted by LibreOffice).
func firstODT(t *testing.T) string {
	m, _ := filepath.Glob(filepath.Join(corpusDir, "odt", "*.odt"))
	if len(m) == 0 {
		t.Fatal("no .odt in the corpus")
	}
	return filepath.Base(m[0])
}
