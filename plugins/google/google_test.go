package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/adapters/pluginhost/enginetest"
)

var pluginDir string

func TestMain(m *testing.M) { enginetest.Main(m, "google", &pluginDir) }

// googleV3 is the documented translateText contract, and the glossary
// endpoints with Cloud Storage uploads (see glossaries_test.go).
func googleV3(t *testing.T) http.Handler { return newStandIn(t) }

func (d *standIn) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	t := d.t
	{
		fail := func(code int, status, msg string) {
			t.Errorf("request refused: %d %s", code, msg)
			w.WriteHeader(code)
			fmt.Fprintf(w, `{"error":{"code":%d,"message":%q,"status":%q}}`, code, msg, status)
		}
		if r.Header.Get("Authorization") != "Bearer ya29.token" {
			fail(401, "UNAUTHENTICATED", "Request had invalid authentication credentials.")
			return
		}
		if d.glossaries(w, r) {
			return
		}
		location := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/v3/projects/my-project/locations/"), ":translateText")
		if r.Method != http.MethodPost || (location != "global" && location != "us-central1") || !strings.HasSuffix(r.URL.Path, ":translateText") {
			fail(404, "NOT_FOUND", r.URL.Path)
			return
		}
		var req struct {
			Contents           []string `json:"contents"`
			MimeType           string   `json:"mimeType"`
			SourceLanguageCode string   `json:"sourceLanguageCode"`
			TargetLanguageCode string   `json:"targetLanguageCode"`
			GlossaryConfig     *struct {
				Glossary string `json:"glossary"`
			} `json:"glossaryConfig"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.TargetLanguageCode == "" || len(req.Contents) == 0 {
			fail(400, "INVALID_ARGUMENT", fmt.Sprint("bad request ", err))
			return
		}
		n := 0
		for _, c := range req.Contents {
			n += len([]rune(c))
			if strings.Contains(c, "<g ") || strings.Contains(c, "<x ") {
				fail(400, "INVALID_ARGUMENT", "XLIFF tags sent as HTML")
				return
			}
		}
		if len(req.Contents) > 1024 || n > 30_000 {
			fail(400, "INVALID_ARGUMENT", "Too many contents or text too long")
			return
		}
		if req.MimeType != "text/html" {
			fail(400, "INVALID_ARGUMENT", "mimeType must be text/html for tagged text")
			return
		}
		type tr struct {
			TranslatedText string `json:"translatedText"`
		}
		var out struct {
			Translations         []tr `json:"translations"`
			GlossaryTranslations []tr `json:"glossaryTranslations,omitempty"`
		}
		var g *vendorEntry
		if req.GlossaryConfig != nil {
			var code int
			var status, msg string
			if g, code, status, msg = d.use(location, req.GlossaryConfig.Glossary, req.SourceLanguageCode, req.TargetLanguageCode); code != 0 {
				w.WriteHeader(code) // a documented refusal the test provokes: no t.Errorf
				fmt.Fprintf(w, `{"error":{"code":%d,"message":%q,"status":%q}}`, code, msg, status)
				return
			}
		}
		for _, c := range req.Contents {
			out.Translations = append(out.Translations, tr{enginetest.Upper(c)})
			if g != nil {
				out.GlossaryTranslations = append(out.GlossaryTranslations, tr{g.apply(c)})
			}
		}
		json.NewEncoder(w).Encode(out)
	}
}

func TestGoogleWire(t *testing.T) {
	enginetest.Suite{
		Engine: "google", Dir: pluginDir, Source: "en", Target: "zh-Hans",
		Env: func(url string) map[string]string {
			return map[string]string{"DRAGOMAN_GOOGLE_PROJECT": "my-project", "DRAGOMAN_GOOGLE_ACCESS_TOKEN": "ya29.token", "DRAGOMAN_GOOGLE_BASE_URL": url}
		},
		Vendor:    func(t *testing.T) *enginetest.Vendor { return enginetest.NewVendor(t, googleV3(t)) },
		Required:  []string{"DRAGOMAN_GOOGLE_PROJECT", "DRAGOMAN_GOOGLE_ACCESS_TOKEN"},
		Malformed: `<html><body>502 Bad Gateway</body></html>`,
		Refusals: []enginetest.Refusal{
			{Fault: enginetest.Fault{Status: 403, Body: `{"error":{"code":403,"message":"Cloud Translation API has not been used in project","status":"PERMISSION_DENIED"}}`}, Want: "PERMISSION_DENIED"},
			{Fault: enginetest.Fault{Status: 400, Body: `{"error":{"code":400,"message":"Target language is invalid.","status":"INVALID_ARGUMENT"}}`}, Want: "Target language is invalid"},
		},
		BigDoc: 300,
	}.Run(t)
}
