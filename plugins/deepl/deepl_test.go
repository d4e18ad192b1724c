package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/adapters/pluginhost/enginetest"
)

var pluginDir string

func TestMain(m *testing.M) { enginetest.Main(m, "deepl", &pluginDir) }

const key = "0f6a-test-key:fx"

// deepL is the documented v2 /translate contract: JSON or form body,
// DeepL-Auth-Key header, at most 50 texts and 128 KiB, XML tag handling;
// and the v2 glossary endpoints (see glossaries_test.go).
func deepL(t *testing.T) http.Handler { return newStandIn(t) }

func (d *standIn) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	t := d.t
	{
		fail := func(status int, msg string) {
			t.Errorf("request refused: %d %s", status, msg)
			w.WriteHeader(status)
			fmt.Fprintf(w, `{"message":%q}`, msg)
		}
		if r.Header.Get("Authorization") != "DeepL-Auth-Key "+key {
			fail(403, "Authorization failed")
			return
		}
		if strings.HasPrefix(r.URL.Path, "/v2/glossaries") {
			d.glossaries(w, r)
			return
		}
		if r.Method != http.MethodPost || r.URL.Path != "/v2/translate" {
			fail(404, "no such endpoint "+r.Method+" "+r.URL.Path)
			return
		}
		if r.ContentLength > 128<<10 {
			fail(413, "Request Entity Too Large")
			return
		}
		var req struct {
			Text             []string `json:"text"`
			SourceLang       string   `json:"source_lang"`
			TargetLang       string   `json:"target_lang"`
			TagHandling      string   `json:"tag_handling"`
			NonSplittingTags []string `json:"non_splitting_tags"`
			Formality        string   `json:"formality"`
			GlossaryID       string   `json:"glossary_id"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Text) == 0 || req.TargetLang == "" {
			fail(400, "Bad request: "+fmt.Sprint(err))
			return
		}
		if len(req.Text) > 50 {
			fail(413, "too many texts")
			return
		}
		if req.TagHandling != "xml" || !slices.Contains(req.NonSplittingTags, "g") {
			fail(400, "tags not handled as xml")
			return
		}
		if req.Formality != "" && !slices.Contains([]string{"DE", "FR", "ES", "IT", "NL", "PL", "PT-PT", "PT-BR", "JA", "RU"}, req.TargetLang) {
			fail(400, "'formality' is not supported for given 'target_lang'")
			return
		}
		if req.TargetLang == "EN" || req.TargetLang == "PT" {
			fail(400, "Value for 'target_lang' not supported: deprecated")
			return
		}
		apply := enginetest.Upper
		if req.GlossaryID != "" {
			g, status, msg := d.use(req.GlossaryID, req.SourceLang, req.TargetLang)
			if status != 0 {
				w.WriteHeader(status) // a documented refusal the test provokes: no t.Errorf
				fmt.Fprintf(w, `{"message":%q}`, msg)
				return
			}
			apply = g.apply
		}
		type tr struct {
			Detected string `json:"detected_source_language"`
			Text     string `json:"text"`
		}
		var out struct {
			Translations []tr `json:"translations"`
		}
		for _, s := range req.Text {
			out.Translations = append(out.Translations, tr{strings.ToUpper(req.SourceLang), apply(s)})
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(out)
	}
}

func suite() enginetest.Suite {
	return enginetest.Suite{
		Engine: "deepl", Dir: pluginDir, Source: "en", Target: "de",
		Env: func(url string) map[string]string {
			return map[string]string{"DRAGOMAN_DEEPL_API_KEY": key, "DRAGOMAN_DEEPL_BASE_URL": url, "DRAGOMAN_DEEPL_FORMALITY": "prefer_more"}
		},
		Required:  []string{"DRAGOMAN_DEEPL_API_KEY"},
		Malformed: `{"translations": [{"text": "only one"}`,
		Refusals: []enginetest.Refusal{
			{Fault: enginetest.Fault{Status: 456, Body: `{"message":"Quota exceeded"}`}, Want: "quota exceeded"},
			{Fault: enginetest.Fault{Status: 403, Body: `{"message":"Wrong endpoint"}`}, Want: "authorization failed"},
			{Fault: enginetest.Fault{Status: 400, Body: `{"message":"Bad request"}`}, Want: "HTTP 400"},
		},
		BigDoc: 120,
	}
}

func TestDeepLWire(t *testing.T) {
	s := suite()
	s.Vendor = func(t *testing.T) *enginetest.Vendor { return enginetest.NewVendor(t, deepL(t)) }
	s.Run(t)
}

func TestDeepLTargetVariantsAndFormality(t *testing.T) {
	v := enginetest.NewVendor(t, deepL(t))
	e, err := enginetest.Start(t, pluginDir, "deepl", suite().Env(v.URL))
	if err != nil {
		t.Fatal(err)
	}
	// en and pt targets need a variant; formality only where DeepL has it.
	for _, tgt := range []string{"en", "pt", "pt-BR", "zh-Hant", "ja", "sv"} {
		if _, err := e.Provider.Translate(t.Context(), requestFor("de", tgt)); err != nil {
			t.Errorf("de→%s: %v", tgt, err)
		}
	}
	if _, err := e.Provider.Translate(t.Context(), requestFor("en", "he")); err == nil || !strings.Contains(err.Error(), "deepl does not translate") {
		t.Errorf("en→he: %v", err)
	}
}
