package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/dragoman-translate/dragoman/plugins/internal/httpengine"
	"github.com/dragoman-translate/dragoman/plugins/sdk"
)

// Documented request limits: 50 texts and 128 KiB per request.
const (
	maxTexts = 50
	maxChars = 100_000 // bytes of text, leaving room for JSON under 128 KiB
)

// Registry code → DeepL code. Sources use the bare language; targets name
// the variant where DeepL requires one.
var sources = map[string]string{
	"ar": "AR", "bg": "BG", "cs": "CS", "da": "DA", "de": "DE", "el": "EL", "en": "EN", "es": "ES",
	"et": "ET", "fi": "FI", "fr": "FR", "hu": "HU", "id": "ID", "it": "IT", "ja": "JA", "ko": "KO",
	"lt": "LT", "lv": "LV", "nb": "NB", "nl": "NL", "pl": "PL", "pt": "PT", "ro": "RO", "ru": "RU",
	"sk": "SK", "sl": "SL", "sv": "SV", "tr": "TR", "uk": "UK", "zh-Hans": "ZH", "zh-Hant": "ZH",
}

var targets = func() map[string]string {
	m := map[string]string{}
	for k, v := range sources {
		m[k] = v
	}
	m["en"], m["pt"], m["zh-Hans"], m["zh-Hant"] = "EN-US", "PT-PT", "ZH-HANS", "ZH-HANT"
	m["pt-BR"] = "PT-BR" // the registry's variant (issue 22)
	return m
}()

var formal = map[string]bool{"DE": true, "FR": true, "IT": true, "ES": true, "NL": true, "PL": true, "PT-PT": true, "PT-BR": true, "JA": true, "RU": true}

type engine struct {
	once       sync.Once
	err        error
	client     *httpengine.Client
	baseURL    string
	key        string
	formality  string
	glossaries httpengine.VendorGlossaries // by name and pair (see glossary.go)
}

func (e *engine) load() error {
	e.once.Do(func() {
		s := httpengine.Settings{Engine: "deepl"}
		if e.key, e.err = s.Required("API_KEY", "the DeepL authentication key"); e.err != nil {
			return
		}
		def := "https://api.deepl.com"
		if strings.HasSuffix(e.key, ":fx") {
			def = "https://api-free.deepl.com"
		}
		e.baseURL = strings.TrimRight(s.String("BASE_URL", def), "/")
		e.formality = s.String("FORMALITY", "")
		switch e.formality {
		case "", "default", "more", "less", "prefer_more", "prefer_less":
		default:
			e.err = fmt.Errorf("deepl engine: %s=%q is not default, more, less, prefer_more or prefer_less", s.Name("FORMALITY"), e.formality)
			return
		}
		e.client, e.err = s.Client()
	})
	return e.err
}

func (e *engine) Capabilities(context.Context) (sdk.Capabilities, error) {
	if err := e.load(); err != nil {
		return sdk.Capabilities{}, err
	}
	var pairs []sdk.Pair
	for s := range sources {
		for t := range targets {
			if s != t && sources[s] != sources[t] && !strings.HasPrefix(targets[t], sources[s]+"-") {
				pairs = append(pairs, sdk.Pair{Source: s, Target: t})
			}
		}
	}
	// DeepL has glossaries for every language it translates but Thai,
	// which this engine does not offer.
	return sdk.Capabilities{Name: "deepl", Pairs: pairs, MaxSegments: maxTexts, MaxChars: maxChars, Modes: []sdk.Mode{sdk.Full},
		NativeGlossary: true}, nil
}

type request struct {
	Text             []string `json:"text"`
	SourceLang       string   `json:"source_lang,omitempty"`
	TargetLang       string   `json:"target_lang"`
	TagHandling      string   `json:"tag_handling"`
	NonSplittingTags []string `json:"non_splitting_tags"`
	SplitSentences   string   `json:"split_sentences"`
	Formality        string   `json:"formality,omitempty"`
	GlossaryID       string   `json:"glossary_id,omitempty"` // needs SourceLang
}

type response struct {
	Translations []struct {
		DetectedSourceLanguage string `json:"detected_source_language"`
		Text                   string `json:"text"`
	} `json:"translations"`
}

func (e *engine) Translate(ctx context.Context, r sdk.TranslateRequest) (sdk.TranslateResult, error) {
	if err := e.load(); err != nil {
		return sdk.TranslateResult{}, err
	}
	src, okS := sources[r.Source]
	tgt, okT := targets[r.Target]
	if !okS || !okT {
		return sdk.TranslateResult{}, fmt.Errorf("deepl does not translate %s→%s", r.Source, r.Target)
	}
	body := request{
		Text: r.Segments, SourceLang: src, TargetLang: tgt,
		TagHandling: "xml", NonSplittingTags: []string{"g", "x"},
		SplitSentences: "nonewlines", // the core already sends one sentence per segment
	}
	if formal[tgt] && e.formality != "" {
		body.Formality = e.formality
	}
	var out []string
	var warnings []string
	var err error
	if r.Glossary != nil && len(r.Glossary.Entries) > 0 {
		warnings, err = e.withGlossary(ctx, r.Glossary, src, tgt, func(id string) (err error) {
			body.GlossaryID = id
			out, err = e.translate(ctx, body, len(r.Segments))
			return err
		})
	} else {
		out, err = e.translate(ctx, body, len(r.Segments))
	}
	if err != nil {
		return sdk.TranslateResult{}, err
	}
	return sdk.TranslateResult{Segments: out, Warnings: warnings}, nil
}

// translate sends one /v2/translate request of n texts.
func (e *engine) translate(ctx context.Context, body request, n int) ([]string, error) {
	payload, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	var out []string
	err = e.client.Do(ctx, e.newRequest(http.MethodPost, "/v2/translate", payload),
		classify,
		func(resp httpengine.Response) error {
			var d response
			if err := json.Unmarshal(resp.Body, &d); err != nil {
				return err
			}
			if len(d.Translations) != n {
				return fmt.Errorf("%d translations for %d texts", len(d.Translations), n)
			}
			out = make([]string, len(d.Translations))
			for i, t := range d.Translations {
				out[i] = t.Text
			}
			return nil
		})
	return out, err
}

// newRequest builds a request to DeepL's API (once per attempt).
func (e *engine) newRequest(method, path string, payload []byte) func(context.Context) (*http.Request, error) {
	return func(ctx context.Context) (*http.Request, error) {
		var body io.Reader
		if payload != nil {
			body = bytes.NewReader(payload)
		}
		req, err := http.NewRequestWithContext(ctx, method, e.baseURL+path, body)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "DeepL-Auth-Key "+e.key)
		if payload != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		return req, nil
	}
}

// classify names DeepL's final errors; 5xx (and DeepL's 529 "too many
// requests" variant) are retried.
func classify(r httpengine.Response) string {
	switch r.Status {
	case 456:
		return "quota exceeded: the DeepL account's character limit is reached" + message(r)
	case http.StatusForbidden, http.StatusUnauthorized:
		return "authorization failed: check DRAGOMAN_DEEPL_API_KEY" + message(r)
	case http.StatusRequestEntityTooLarge:
		return "request too large" + message(r)
	case 529:
		return ""
	}
	return ""
}

func message(r httpengine.Response) string {
	var m struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(r.Body, &m) == nil && m.Message != "" {
		return " (" + m.Message + ")"
	}
	return ""
}
