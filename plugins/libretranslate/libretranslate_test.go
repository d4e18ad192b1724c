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

func TestMain(m *testing.M) { enginetest.Main(m, "libretranslate", &pluginDir) }

// libreTranslate is the documented API of a server started with
// --api-keys, --batch-limit 50 and --char-limit 20000.
func libreTranslate(t *testing.T) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /languages", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `[{"code":"en","name":"English","targets":["en","es","zt","ar","zh"]},
			{"code":"es","name":"Spanish","targets":["en","es"]},
			{"code":"zh","name":"Chinese","targets":["en"]},
			{"code":"zt","name":"Chinese (traditional)","targets":["en"]},
			{"code":"ar","name":"Arabic","targets":["en"]},
			{"code":"xx","name":"Klingon","targets":["en"]}]`)
	})
	mux.HandleFunc("POST /translate", func(w http.ResponseWriter, r *http.Request) {
		fail := func(status int, msg string) {
			t.Errorf("request refused: %d %s", status, msg)
			w.WriteHeader(status)
			fmt.Fprintf(w, `{"error":%q}`, msg)
		}
		var req struct {
			Q      []string `json:"q"`
			Source string   `json:"source"`
			Target string   `json:"target"`
			Format string   `json:"format"`
			APIKey string   `json:"api_key"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Q) == 0 {
			fail(400, "Invalid request: missing q parameter")
			return
		}
		if req.APIKey != "lt-key" {
			fail(403, "Invalid API key")
			return
		}
		n := 0
		for _, q := range req.Q {
			n += len([]rune(q))
		}
		if len(req.Q) > 50 || n > 20_000 {
			fail(400, "Invalid request: request exceeds batch or character limit")
			return
		}
		if req.Format != "html" || strings.Contains(strings.Join(req.Q, ""), "<g ") {
			fail(400, "codes must be sent as html")
			return
		}
		var out struct {
			TranslatedText []string `json:"translatedText"`
		}
		for _, q := range req.Q {
			out.TranslatedText = append(out.TranslatedText, enginetest.Upper(q))
		}
		json.NewEncoder(w).Encode(out)
	})
	return mux
}

func env(url string) map[string]string {
	return map[string]string{"DRAGOMAN_LIBRETRANSLATE_BASE_URL": url, "DRAGOMAN_LIBRETRANSLATE_API_KEY": "lt-key"}
}

func TestLibreTranslateWire(t *testing.T) {
	enginetest.Suite{
		Engine: "libretranslate", Dir: pluginDir, Source: "en", Target: "es",
		Env:       env,
		Vendor:    func(t *testing.T) *enginetest.Vendor { return enginetest.NewVendor(t, libreTranslate(t)) },
		Required:  []string{"DRAGOMAN_LIBRETRANSLATE_BASE_URL"},
		Malformed: `{"translatedText": "one string for many"}`,
		Refusals: []enginetest.Refusal{
			{Fault: enginetest.Fault{Status: 403, Body: `{"error":"Invalid API key"}`}, Want: "Invalid API key"},
			{Fault: enginetest.Fault{Status: 400, Body: `{"error":"es is not supported"}`}, Want: "es is not supported"},
		},
		BigDoc: 120,
	}.Run(t)
}

func TestLibreTranslatePairsFromServer(t *testing.T) {
	v := enginetest.NewVendor(t, libreTranslate(t))
	e, err := enginetest.Start(t, pluginDir, "libretranslate", env(v.URL))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, p := range e.Caps.Pairs {
		got[p.Source+">"+p.Target] = true
	}
	for _, want := range []string{"en>es", "es>en", "en>zh-Hans", "en>zh-Hant", "zh-Hant>en", "en>ar"} {
		if !got[want] {
			t.Errorf("pair %s missing from %v", want, got)
		}
	}
	if got["en>en"] || len(got) != 8 {
		t.Errorf("pairs %v", got)
	}
}

func TestLibreTranslateServerDown(t *testing.T) {
	_, err := enginetest.Start(t, pluginDir, "libretranslate", map[string]string{
		"DRAGOMAN_LIBRETRANSLATE_BASE_URL": "http://127.0.0.1:1", "DRAGOMAN_LIBRETRANSLATE_MAX_RETRIES": "0",
	})
	if err == nil || !strings.Contains(err.Error(), "libretranslate") || !strings.Contains(err.Error(), "/languages") {
		t.Errorf("start against a closed port: %v", err)
	}
}
