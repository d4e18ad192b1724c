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
		base := strings.TrimRight(s.String("BASE_URL", "https://translation.googleapis.com"), "/")
		e.url = fmt.Sprintf("%s/v3/projects/%s/locations/%s:translateText", base, project, s.String("LOCATION", "global"))
		e.model = s.String("MODEL", "")
		e.client, e.err = s.Client()
	})
	return e.err
}

func (e *engine) Capabilities(context.Context) (sdk.Capabilities, error) {
	if err := e.load(); err != nil {
		return sdk.Capabilities{}, err
	}
	return sdk.Capabilities{Name: "google", AnyToAny: true, MaxSegments: maxContents, MaxChars: maxChars, Modes: []sdk.Mode{sdk.Full}}, nil
}

type request struct {
	Contents           []string `json:"contents"`
	MimeType           string   `json:"mimeType"`
	SourceLanguageCode string   `json:"sourceLanguageCode,omitempty"`
	TargetLanguageCode string   `json:"targetLanguageCode"`
	Model              string   `json:"model,omitempty"`
}

type response struct {
	Translations []struct {
		TranslatedText string `json:"translatedText"`
	} `json:"translations"`
}

func (e *engine) Translate(ctx context.Context, r sdk.TranslateRequest) (sdk.TranslateResult, error) {
	if err := e.load(); err != nil {
		return sdk.TranslateResult{}, err
	}
	body := request{MimeType: "text/html", SourceLanguageCode: code(r.Source), TargetLanguageCode: code(r.Target), Model: e.model}
	for _, s := range r.Segments {
		body.Contents = append(body.Contents, httpengine.ToHTML(s))
	}
	payload, err := json.Marshal(body)
	if err != nil {
		return sdk.TranslateResult{}, err
	}
	var out []string
	err = e.client.Do(ctx,
		func(ctx context.Context) (*http.Request, error) {
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.url, bytes.NewReader(payload))
			if err != nil {
				return nil, err
			}
			req.Header.Set("Content-Type", "application/json; charset=utf-8")
			if e.token != "" {
				req.Header.Set("Authorization", "Bearer "+e.token)
			} else {
				req.Header.Set("x-goog-api-key", e.apiKey)
			}
			return req, nil
		},
		classify,
		func(resp httpengine.Response) error {
			var d response
			if err := json.Unmarshal(resp.Body, &d); err != nil {
				return err
			}
			if len(d.Translations) != len(r.Segments) {
				return fmt.Errorf("%d translations for %d contents", len(d.Translations), len(r.Segments))
			}
			out = make([]string, len(d.Translations))
			for i, t := range d.Translations {
				out[i] = httpengine.FromHTML(t.TranslatedText)
			}
			return nil
		})
	if err != nil {
		return sdk.TranslateResult{}, err
	}
	return sdk.TranslateResult{Segments: out}, nil
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
