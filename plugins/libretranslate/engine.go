package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/dragoman-translate/dragoman/plugins/internal/httpengine"
	"github.com/dragoman-translate/dragoman/plugins/sdk"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
)

// aliases are the server spellings of registry codes, newest first.
var aliases = map[string][]string{
	"zh-Hans": {"zh-Hans", "zh"}, "zh-Hant": {"zh-Hant", "zt"}, "nb": {"nb", "no"}, "he": {"he", "iw"},
}

type engine struct {
	mu        sync.Mutex
	loaded    bool
	client    *httpengine.Client
	base, key string
	batchN    int
	batchC    int
	pairs     []sdk.Pair
	server    map[string]string // registry code → server code
}

// load reads the settings and the server's languages; a failure is
// retried on the next call, since the server may simply not be up yet.
func (e *engine) load(ctx context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.loaded {
		return nil
	}
	s := httpengine.Settings{Engine: "libretranslate"}
	base, err := s.Required("BASE_URL", "the LibreTranslate server, e.g. http://localhost:5000")
	if err != nil {
		return err
	}
	e.base, e.key = strings.TrimRight(base, "/"), s.String("API_KEY", "")
	if e.batchN, err = s.Int("BATCH_SEGMENTS", 50); err != nil {
		return err
	}
	if e.batchC, err = s.Int("BATCH_CHARS", 20_000); err != nil {
		return err
	}
	if e.client, err = s.Client(); err != nil {
		return err
	}
	var langs []struct {
		Code    string   `json:"code"`
		Targets []string `json:"targets"`
	}
	err = e.client.Do(ctx, func(ctx context.Context) (*http.Request, error) {
		return http.NewRequestWithContext(ctx, http.MethodGet, e.base+"/languages", nil)
	}, nil, func(r httpengine.Response) error { return json.Unmarshal(r.Body, &langs) })
	if err != nil {
		return fmt.Errorf("listing the server's languages (GET %s/languages): %w", e.base, err)
	}
	e.server = map[string]string{}
	toRegistry := map[string]string{}
	for _, l := range langs {
		code := l.Code
		for reg, names := range aliases {
			for _, n := range names {
				if n == l.Code {
					code = reg
				}
			}
		}
		if _, ok := language.ByCode(code); ok {
			if reg, _ := language.ByCode(code); reg.Code != "" {
				toRegistry[l.Code] = reg.Code
				if _, taken := e.server[reg.Code]; !taken {
					e.server[reg.Code] = l.Code
				}
			}
		}
	}
	e.pairs = nil
	for _, l := range langs {
		src, ok := toRegistry[l.Code]
		if !ok {
			continue
		}
		for _, t := range l.Targets {
			if tgt, ok := toRegistry[t]; ok && tgt != src {
				e.pairs = append(e.pairs, sdk.Pair{Source: src, Target: tgt})
			}
		}
	}
	if len(e.pairs) == 0 {
		return fmt.Errorf("libretranslate engine: the server at %s offers no language pair Dragoman knows", e.base)
	}
	e.loaded = true
	return nil
}

func (e *engine) Capabilities(ctx context.Context) (sdk.Capabilities, error) {
	if err := e.load(ctx); err != nil {
		return sdk.Capabilities{}, err
	}
	return sdk.Capabilities{Name: "libretranslate", Pairs: e.pairs, MaxSegments: e.batchN, MaxChars: e.batchC, Modes: []sdk.Mode{sdk.Full}}, nil
}

type request struct {
	Q      []string `json:"q"`
	Source string   `json:"source"`
	Target string   `json:"target"`
	Format string   `json:"format"`
	APIKey string   `json:"api_key,omitempty"`
}

func (e *engine) Translate(ctx context.Context, r sdk.TranslateRequest) (sdk.TranslateResult, error) {
	if err := e.load(ctx); err != nil {
		return sdk.TranslateResult{}, err
	}
	src, okS := e.server[r.Source]
	tgt, okT := e.server[r.Target]
	if !okS || !okT {
		return sdk.TranslateResult{}, fmt.Errorf("the libretranslate server does not translate %s→%s", r.Source, r.Target)
	}
	body := request{Source: src, Target: tgt, Format: "html", APIKey: e.key}
	for _, s := range r.Segments {
		body.Q = append(body.Q, httpengine.ToHTML(s))
	}
	payload, err := json.Marshal(body)
	if err != nil {
		return sdk.TranslateResult{}, err
	}
	var out []string
	err = e.client.Do(ctx,
		func(ctx context.Context) (*http.Request, error) {
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.base+"/translate", bytes.NewReader(payload))
			if err == nil {
				req.Header.Set("Content-Type", "application/json")
			}
			return req, err
		},
		classify,
		func(resp httpengine.Response) error {
			var d struct {
				TranslatedText []string `json:"translatedText"`
			}
			if err := json.Unmarshal(resp.Body, &d); err != nil {
				return err
			}
			if len(d.TranslatedText) != len(r.Segments) {
				return fmt.Errorf("%d translations for %d texts", len(d.TranslatedText), len(r.Segments))
			}
			out = make([]string, len(d.TranslatedText))
			for i, t := range d.TranslatedText {
				out[i] = httpengine.FromHTML(t)
			}
			return nil
		})
	if err != nil {
		return sdk.TranslateResult{}, err
	}
	return sdk.TranslateResult{Segments: out}, nil
}

// classify reads LibreTranslate's {"error": "..."} bodies.
func classify(r httpengine.Response) string {
	var d struct {
		Error string `json:"error"`
	}
	json.Unmarshal(r.Body, &d)
	switch r.Status {
	case http.StatusForbidden:
		return "refused the API key (" + d.Error + "); check DRAGOMAN_LIBRETRANSLATE_API_KEY"
	case http.StatusBadRequest:
		return "request refused: " + d.Error
	}
	return ""
}
