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

// Documented limits: 1024 contents per request, about 30,000 code points
// in all is recommended.
const (
	maxContents = 128
	maxChars    = 30_000
)

// Registry codes Google spells differently.
var codes = map[string]string{"zh-Hans": "zh-CN", "zh-Hant": "zh-TW", "nb": "no"}

func code(c string) string {
	if g, ok := codes[c]; ok {
		return g
	}
	return c
}

type engine struct {
	once                      sync.Once
	err                       error
	client                    *httpengine.Client
	url, token, apiKey, model string

	// Glossaries (glossary.go): on only with an access token, a bucket and
	// a regional location.
	base, parent, bucket, storage string
	glossaries                    httpengine.VendorGlossaries // by glossary resource name
}

func (e *engine) load() error {
	e.once.Do(func() {
		s := httpengine.Settings{Engine: "google"}
		project, err := s.Required("PROJECT", "the Google Cloud project id")
		if err != nil {
			e.err = err
			return
		}
		e.token, e.apiKey = s.String("ACCESS_TOKEN", ""), s.String("API_KEY", "")
		if e.token == "" && e.apiKey == "" {
			e.err = fmt.Errorf("google engine: set %s (OAuth access token) or %s", s.Name("ACCESS_TOKEN"), s.Name("API_KEY"))
			return
		}
		e.base = strings.TrimRight(s.String("BASE_URL", "https://translation.googleapis.com"), "/")
		location := s.String("LOCATION", "global")
		e.parent = fmt.Sprintf("projects/%s/locations/%s", project, location)
		e.url = e.base + "/v3/" + e.parent + ":translateText"
		e.model = s.String("MODEL", "")
		e.bucket = s.String("GLOSSARY_BUCKET", "")
		e.storage = strings.TrimRight(s.String("STORAGE_URL", "https://storage.googleapis.com"), "/")
		if e.bucket != "" && (e.token == "" || location == "global") {
			e.err = fmt.Errorf("google engine: %s needs %s (Cloud Storage and glossaries take no API key) and a regional %s such as us-central1 (glossaries are not served from global)",
				s.Name("GLOSSARY_BUCKET"), s.Name("ACCESS_TOKEN"), s.Name("LOCATION"))
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
	return sdk.Capabilities{Name: "google", AnyToAny: true, MaxSegments: maxContents, MaxChars: maxChars, Modes: []sdk.Mode{sdk.Full},
		NativeGlossary: e.bucket != ""}, nil
}

type request struct {
	Contents           []string `json:"contents"`
	MimeType           string   `json:"mimeType"`
	SourceLanguageCode string   `json:"sourceLanguageCode,omitempty"`
	TargetLanguageCode string   `json:"targetLanguageCode"`
	Model              string   `json:"model,omitempty"`
	GlossaryConfig     *struct {
		Glossary string `json:"glossary"`
	} `json:"glossaryConfig,omitempty"`
}

type translation struct {
	TranslatedText string `json:"translatedText"`
}

type response struct {
	Translations         []translation `json:"translations"`
	GlossaryTranslations []translation `json:"glossaryTranslations"`
}

func (e *engine) Translate(ctx context.Context, r sdk.TranslateRequest) (sdk.TranslateResult, error) {
	if err := e.load(); err != nil {
		return sdk.TranslateResult{}, err
	}
	body := request{MimeType: "text/html", SourceLanguageCode: code(r.Source), TargetLanguageCode: code(r.Target), Model: e.model}
	for _, s := range r.Segments {
		body.Contents = append(body.Contents, httpengine.ToHTML(s))
	}
	var out []string
	var warnings []string
	var err error
	if r.Glossary != nil && len(r.Glossary.Entries) > 0 && e.bucket != "" {
		warnings, err = e.withGlossary(ctx, r.Glossary, body.SourceLanguageCode, body.TargetLanguageCode, func(name string) (err error) {
			body.GlossaryConfig = nil
			if name != "" {
				body.GlossaryConfig = &struct {
					Glossary string `json:"glossary"`
				}{name}
			}
			out, err = e.translate(ctx, body)
			return err
		})
	} else {
		out, err = e.translate(ctx, body)
	}
	if err != nil {
		return sdk.TranslateResult{}, err
	}
	return sdk.TranslateResult{Segments: out, Warnings: warnings}, nil
}

// translate sends one translateText request; with a glossary, the
// glossary's translations are the answer.
func (e *engine) translate(ctx context.Context, body request) ([]string, error) {
	payload, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	var out []string
	err = e.client.Do(ctx, e.newRequest(http.MethodPost, e.url, "application/json; charset=utf-8", payload),
		classify,
		func(resp httpengine.Response) error {
			var d response
			if err := json.Unmarshal(resp.Body, &d); err != nil {
				return err
			}
			ts := d.Translations
			if body.GlossaryConfig != nil {
				ts = d.GlossaryTranslations
			}
			if len(ts) != len(body.Contents) {
				return fmt.Errorf("%d translations for %d contents", len(ts), len(body.Contents))
			}
			out = make([]string, len(ts))
			for i, t := range ts {
				out[i] = httpengine.FromHTML(t.TranslatedText)
			}
			return nil
		})
	return out, err
}

// newRequest builds an authorised request (once per attempt).
func (e *engine) newRequest(method, url, contentType string, payload []byte) func(context.Context) (*http.Request, error) {
	return func(ctx context.Context) (*http.Request, error) {
		var body io.Reader
		if payload != nil {
			body = bytes.NewReader(payload)
		}
		req, err := http.NewRequestWithContext(ctx, method, url, body)
		if err != nil {
			return nil, err
		}
		if payload != nil {
			req.Header.Set("Content-Type", contentType)
		}
		if e.token != "" {
			req.Header.Set("Authorization", "Bearer "+e.token)
		} else {
			req.Header.Set("x-goog-api-key", e.apiKey)
		}
		return req, nil
	}
}

// classify reads Google's error body ({"error":{"code","message","status"}}).
func classify(r httpengine.Response) string {
	var d struct {
		Error struct {
			Message string `json:"message"`
			Status  string `json:"status"`
		} `json:"error"`
	}
	json.Unmarshal(r.Body, &d)
	switch {
	case r.Status == http.StatusUnauthorized || r.Status == http.StatusForbidden:
		return fmt.Sprintf("authorization failed (%s): %s", d.Error.Status, d.Error.Message)
	case r.Status == http.StatusBadRequest:
		return fmt.Sprintf("request refused (%s): %s", d.Error.Status, d.Error.Message)
	}
	return ""
}
