package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"unicode/utf16"

	"github.com/dragoman-translate/dragoman/plugins/internal/httpengine"
	"github.com/dragoman-translate/dragoman/plugins/sdk"
	"github.com/dragoman-translate/dragoman/plugins/sdk/terms"
)

// Documented limits: 1000 array elements and 50,000 characters per
// request (HTML markup included).
const (
	maxElements = 1000
	maxChars    = 45_000 // room for the markup the codes become
)

// Registry codes Azure spells differently.
var codes = map[string]string{"tl": "fil", "sr": "sr-Cyrl", "mn": "mn-Cyrl"}

func code(c string) string {
	if a, ok := codes[c]; ok {
		return a
	}
	return c
}

type engine struct {
	once                        sync.Once
	err                         error
	client                      *httpengine.Client
	base, key, region, category string

	mu    sync.Mutex
	terms map[string]*terms.Matcher // by glossary version, the last few
}

func (e *engine) load() error {
	e.once.Do(func() {
		s := httpengine.Settings{Engine: "azure"}
		if e.key, e.err = s.Required("API_KEY", "the Translator resource key"); e.err != nil {
			return
		}
		e.region = s.String("REGION", "")
		e.category = s.String("CATEGORY", "")
		e.base = strings.TrimRight(s.String("BASE_URL", "https://api.cognitive.microsofttranslator.com"), "/")
		e.client, e.err = s.Client()
	})
	return e.err
}

func (e *engine) Capabilities(context.Context) (sdk.Capabilities, error) {
	if err := e.load(); err != nil {
		return sdk.Capabilities{}, err
	}
	// The dynamic dictionary works only between English and another
	// language; other pairs get the host's enforcement.
	return sdk.Capabilities{Name: "azure", AnyToAny: true, MaxSegments: maxElements, MaxChars: maxChars, Modes: []sdk.Mode{sdk.Full},
		NativeGlossary: true, GlossaryPairs: []sdk.Pair{{Source: "en", Target: sdk.AnyLanguage}, {Source: sdk.AnyLanguage, Target: "en"}}}, nil
}

// termsOf prepares a glossary for marking, once per version.
func (e *engine) termsOf(g *sdk.Glossary) *terms.Matcher {
	e.mu.Lock()
	defer e.mu.Unlock()
	if t, ok := e.terms[g.Version]; ok {
		return t
	}
	if e.terms == nil || len(e.terms) >= 8 {
		e.terms = map[string]*terms.Matcher{}
	}
	t := terms.New(g.Entries)
	e.terms[g.Version] = t
	return t
}

// dictionary is Translator's dynamic dictionary markup for one term; the
// markup is the same in HTML mode, which this engine uses.
func dictionary(source, target string) string {
	return `<mstrans:dictionary translation="` + html.EscapeString(target) + `">` + html.EscapeString(source) + `</mstrans:dictionary>`
}

type element struct {
	Text string `json:"Text"`
}

type result struct {
	Translations []struct {
		Text string `json:"text"`
		To   string `json:"to"`
	} `json:"translations"`
}

func (e *engine) Translate(ctx context.Context, r sdk.TranslateRequest) (sdk.TranslateResult, error) {
	if err := e.load(); err != nil {
		return sdk.TranslateResult{}, err
	}
	q := url.Values{"api-version": {"3.0"}, "from": {code(r.Source)}, "to": {code(r.Target)}, "textType": {"html"}}
	if e.category != "" {
		q.Set("category", e.category)
	}
	var matcher *terms.Matcher
	if r.Glossary != nil && (r.Source == "en" || r.Target == "en") { // the dictionary's documented requirement
		matcher = e.termsOf(r.Glossary)
	}
	body := make([]element, len(r.Segments))
	for i, s := range r.Segments {
		body[i].Text = httpengine.ToHTMLMarking(s, matcher, dictionary)
	}
	// The dictionary markup counts toward the request's characters: a
	// batch the host sized by its text may need several requests.
	var out []string
	for _, part := range requestParts(body) {
		got, err := e.send(ctx, q, part)
		if err != nil {
			return sdk.TranslateResult{}, err
		}
		out = append(out, got...)
	}
	return sdk.TranslateResult{Segments: out}, nil
}

// requestLimit is Translator's documented size of one request, markup
// included.
const requestLimit = 50_000

// requestParts splits elements into runs that fit one request: at most
// maxElements, and requestLimit characters unless one element alone is
// larger (sent alone, for the service to judge).
func requestParts(body []element) [][]element {
	var parts [][]element
	from, n := 0, 0
	for i, el := range body {
		c := len(utf16.Encode([]rune(el.Text)))
		if i > from && (n+c > requestLimit || i-from >= maxElements) {
			parts = append(parts, body[from:i])
			from, n = i, 0
		}
		n += c
	}
	return append(parts, body[from:])
}

// send translates one request's elements.
func (e *engine) send(ctx context.Context, q url.Values, body []element) ([]string, error) {
	payload, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	var out []string
	err = e.client.Do(ctx,
		func(ctx context.Context) (*http.Request, error) {
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.base+"/translate?"+q.Encode(), bytes.NewReader(payload))
			if err != nil {
				return nil, err
			}
			req.Header.Set("Content-Type", "application/json; charset=UTF-8")
			req.Header.Set("Ocp-Apim-Subscription-Key", e.key)
			if e.region != "" {
				req.Header.Set("Ocp-Apim-Subscription-Region", e.region)
			}
			return req, nil
		},
		classify,
		func(resp httpengine.Response) error {
			var d []result
			if err := json.Unmarshal(resp.Body, &d); err != nil {
				return err
			}
			if len(d) != len(body) {
				return fmt.Errorf("%d results for %d texts", len(d), len(body))
			}
			out = make([]string, len(d))
			for i, res := range d {
				if len(res.Translations) != 1 {
					return fmt.Errorf("result %d has %d translations, want 1", i, len(res.Translations))
				}
				out[i] = httpengine.FromHTML(res.Translations[0].Text)
			}
			return nil
		})
	return out, err
}

// classify reads Azure's error body ({"error":{"code":403001,"message"}}).
// 403001 (free tier quota used up) and bad keys are final; 429 is retried.
func classify(r httpengine.Response) string {
	var d struct {
		Error struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	json.Unmarshal(r.Body, &d)
	switch {
	case r.Status == http.StatusForbidden && d.Error.Code == 403001:
		return "quota exceeded: the free tier's character quota is used up (403001)"
	case r.Status == http.StatusUnauthorized || r.Status == http.StatusForbidden:
		return fmt.Sprintf("authorization failed (%d): %s; check DRAGOMAN_AZURE_API_KEY and DRAGOMAN_AZURE_REGION", d.Error.Code, d.Error.Message)
	case r.Status >= 400 && r.Status < 500 && r.Status != http.StatusTooManyRequests && r.Status != http.StatusRequestTimeout:
		return fmt.Sprintf("request refused (%d): %s", d.Error.Code, d.Error.Message)
	}
	return ""
}
