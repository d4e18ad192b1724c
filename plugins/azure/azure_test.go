package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/dragoman-translate/dragoman/plugins/internal/httpengine/enginetest"
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
				out = append(out, res{[]tr{{enginetest.Upper(e.Text), q.Get("to")}}})
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
