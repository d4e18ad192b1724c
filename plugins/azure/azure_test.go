package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/adapters/pluginhost/enginetest"
	"github.com/dragoman-translate/dragoman/core/glossary"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
)

var pluginDir string

func TestMain(m *testing.M) { enginetest.Main(m, "azure", &pluginDir) }

// translatorV3 is the documented Translator v3 /translate contract.
func translatorV3(t *testing.T) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fail := func(status, code int, msg string) {
			t.Errorf("request refused: %d %s", status, msg)
			w.WriteHeader(status)
			fmt.Fprintf(w, `{"error":{"code":%d,"message":%q}}`, code, msg)
		}
		q := r.URL.Query()
		switch {
		case r.Method != http.MethodPost || r.URL.Path != "/translate":
			fail(404, 404000, "not found")
		case q.Get("api-version") != "3.0":
			fail(400, 400021, "The API version parameter is missing or invalid.")
		case r.Header.Get("Ocp-Apim-Subscription-Key") != "az-key" || r.Header.Get("Ocp-Apim-Subscription-Region") != "westeurope":
			fail(401, 401000, "The request is not authorized because credentials are missing or invalid.")
		case q.Get("to") == "" || q.Get("textType") != "html":
			fail(400, 400036, "The target language or text type is not valid.")
		default:
			var in []struct{ Text string }
			if err := json.NewDecoder(r.Body).Decode(&in); err != nil || len(in) == 0 {
				fail(400, 400074, "The body of the request is not valid JSON.")
				return
			}
			n := 0
			for _, e := range in {
				n += len([]rune(e.Text))
			}
			if len(in) > 1000 || n > 50_000 {
				fail(400, 400077, "The maximum request size has been exceeded.")
				return
			}
			type tr struct {
				Text string `json:"text"`
				To   string `json:"to"`
			}
			type res struct {
				Translations []tr `json:"translations"`
			}
			var out []res
			for _, e := range in {
				out = append(out, res{[]tr{{withDictionary(t, e.Text, q.Get("from"), q.Get("to")), q.Get("to")}}})
			}
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(out)
		}
	})
}

func TestAzureWire(t *testing.T) {
	enginetest.Suite{
		Engine: "azure", Dir: pluginDir, Source: "en", Target: "ar",
		Env: func(url string) map[string]string {
			return map[string]string{"DRAGOMAN_AZURE_API_KEY": "az-key", "DRAGOMAN_AZURE_REGION": "westeurope", "DRAGOMAN_AZURE_BASE_URL": url}
		},
		Vendor:    func(t *testing.T) *enginetest.Vendor { return enginetest.NewVendor(t, translatorV3(t)) },
		Required:  []string{"DRAGOMAN_AZURE_API_KEY"},
		Malformed: `[{"translations":[]}]`,
		Refusals: []enginetest.Refusal{
			{Fault: enginetest.Fault{Status: 403, Body: `{"error":{"code":403001,"message":"The operation is not allowed because the subscription has exceeded its free quota."}}`}, Want: "quota exceeded"},
			{Fault: enginetest.Fault{Status: 401, Body: `{"error":{"code":401000,"message":"credentials are missing or invalid"}}`}, Want: "authorization failed"},
		},
		BigDoc: 1200,
	}.Run(t)
}

var dictionaryMarkup = regexp.MustCompile(`<mstrans:dictionary translation="([^"]*)">(.*?)</mstrans:dictionary>`)

// withDictionary translates like enginetest.Upper, applying the dynamic
// dictionary as documented: each marked phrase becomes its translation
// attribute, as it is (HTML), when English is the source or the target.
func withDictionary(t *testing.T, text, from, to string) string {
	marks := dictionaryMarkup.FindAllStringSubmatch(text, -1)
	if len(marks) == 0 {
		return enginetest.Upper(text)
	}
	if from != "en" && to != "en" {
		t.Errorf("dynamic dictionary sent for %s→%s, which the service ignores", from, to)
	}
	i := 0
	text = dictionaryMarkup.ReplaceAllStringFunc(text, func(string) string { i++; return fmt.Sprintf("\x00%d\x00", i-1) })
	text = enginetest.Upper(text)
	for i, m := range marks {
		text = strings.Replace(text, fmt.Sprintf("\x00%d\x00", i), m[1], 1)
	}
	return text
}

// For pairs with English the job's glossary goes to Translator as dynamic
// dictionary markup, in HTML mode, codes and escapes kept; without
// English (where the service ignores the markup) none is sent, and the
// capabilities leave those pairs to the core.
func TestAzureDynamicDictionary(t *testing.T) {
	var bodies []string
	stand := translatorV3(t)
	v := enginetest.NewVendor(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		bodies = append(bodies, string(b))
		r.Body = io.NopCloser(bytes.NewReader(b))
		stand.ServeHTTP(w, r)
	}))
	e, err := enginetest.Start(t, pluginDir, "azure", map[string]string{"DRAGOMAN_AZURE_API_KEY": "az-key", "DRAGOMAN_AZURE_REGION": "westeurope", "DRAGOMAN_AZURE_BASE_URL": v.URL})
	if err != nil {
		t.Fatal(err)
	}
	if !e.Caps.GlossaryNative("en", "ar") || !e.Caps.GlossaryNative("ar", "en") || e.Caps.GlossaryNative("de", "fr") {
		t.Errorf("capabilities %+v", e.Caps)
	}
	g := &ports.Glossary{Version: "v1", Entries: []glossary.Entry{{Source: "invoice", Target: "فاتورة"}, {Source: "Fish & chips", Target: `"F&C" <Ltd>`}}}
	segs := []string{`Pay the <g id="1">invoice</g> for Fish &amp; chips<x id="2"/> now.`, "Reinvoice nothing."}
	res, err := e.Provider.Translate(t.Context(), ports.TranslateRequest{Source: "en", Target: "ar", Mode: translation.Full, Segments: segs, Glossary: g})
	if err != nil {
		t.Fatal(err)
	}
	if want := `PAY THE <g id="1">فاتورة</g> FOR "F&amp;C" &lt;Ltd&gt;<x id="2"/> NOW.`; res.Segments[0] != want {
		t.Errorf("target %q\nwant   %q", res.Segments[0], want)
	}
	if res.Segments[1] != "REINVOICE NOTHING." {
		t.Errorf("a term inside a word was marked: %q", res.Segments[1])
	}
	if !strings.Contains(bodies[0], `\u003cmstrans:dictionary translation=\"فاتورة\"\u003einvoice\u003c/mstrans:dictionary\u003e`) {
		t.Errorf("request body %s", bodies[0])
	}
	// Without English the service ignores the markup: none is sent.
	res, err = e.Provider.Translate(t.Context(), ports.TranslateRequest{Source: "de", Target: "fr", Mode: translation.Full, Segments: []string{"Die invoice."}, Glossary: g})
	if err != nil || res.Segments[0] != "DIE INVOICE." || strings.Contains(bodies[1], "mstrans") {
		t.Errorf("de→fr: %q, %v, body %s", res.Segments, err, bodies[1])
	}
}

// The markup of a glossary's terms counts toward Translator's 50,000
// characters a request: a batch as large as the engine takes (MaxChars)
// and dense with terms goes out in as many requests as the limit needs,
// not as one the service refuses.
func TestAzureDictionaryMarkupWithinTheRequestLimit(t *testing.T) {
	var requests int
	stand := translatorV3(t)
	v := enginetest.NewVendor(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests++
		stand.ServeHTTP(w, r)
	}))
	e, err := enginetest.Start(t, pluginDir, "azure", map[string]string{"DRAGOMAN_AZURE_API_KEY": "az-key", "DRAGOMAN_AZURE_REGION": "westeurope", "DRAGOMAN_AZURE_BASE_URL": v.URL, "DRAGOMAN_AZURE_MAX_RETRIES": "0"})
	if err != nil {
		t.Fatal(err)
	}
	g := &ports.Glossary{Version: "v1", Entries: []glossary.Entry{{Source: "invoice", Target: "فاتورة"}, {Source: "Acme", Target: "أكمي"}}}
	seg := "Acme sends the invoice, and the invoice goes to Acme's client with a second invoice."
	var segs []string
	for n := 0; n+len(seg) <= e.Caps.MaxChars && len(segs) < e.Caps.MaxSegments; n += len(seg) {
		segs = append(segs, seg)
	}
	res, err := e.Provider.Translate(t.Context(), ports.TranslateRequest{Source: "en", Target: "ar", Mode: translation.Full, Segments: segs, Glossary: g})
	if err != nil {
		t.Fatal(err)
	}
	want := "أكمي SENDS THE فاتورة, AND THE فاتورة GOES TO أكمي'S CLIENT WITH A SECOND فاتورة."
	if len(res.Segments) != len(segs) || res.Segments[0] != want || res.Segments[len(segs)-1] != want {
		t.Errorf("%d segments, first %q, last %q", len(res.Segments), res.Segments[0], res.Segments[len(res.Segments)-1])
	}
	if requests < 2 {
		t.Errorf("%d request(s) for %d segments with their markup", requests, len(segs))
	}
}
