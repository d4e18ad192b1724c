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
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

const defaultBase = "https://api.openai.com/v1"

type engine struct {
	once       sync.Once
	err        error
	client     *httpengine.Client
	url, model string
	key        string
	apiKeyAuth bool
	jsonMode   bool
	batchN     int
	batchC     int
}

func (e *engine) load() error {
	e.once.Do(func() { e.err = e.configure() })
	return e.err
}

func (e *engine) configure() error {
	s := httpengine.Settings{Engine: "openai"}
	var err error
	if e.model, err = s.Required("MODEL", "the model name, e.g. gpt-4o-mini or llama3.1:8b"); err != nil {
		return err
	}
	base := strings.TrimRight(s.String("BASE_URL", defaultBase), "/")
	e.url = base + "/chat/completions"
	e.key = s.String("API_KEY", "")
	if e.key == "" && base == defaultBase {
		return fmt.Errorf("openai engine: %s is not set (needed for %s; local servers set %s instead)", s.Name("API_KEY"), defaultBase, s.Name("BASE_URL"))
	}
	switch h := strings.ToLower(s.String("AUTH_HEADER", "authorization")); h {
	case "authorization":
	case "api-key":
		e.apiKeyAuth = true
	default:
		return fmt.Errorf("openai engine: %s=%q is not authorization or api-key", s.Name("AUTH_HEADER"), h)
	}
	e.jsonMode = s.String("JSON_MODE", "true") != "false"
	if e.batchN, err = s.Int("BATCH_SEGMENTS", 40); err != nil {
		return err
	}
	if e.batchC, err = s.Int("BATCH_CHARS", 8000); err != nil {
		return err
	}
	e.client, err = s.Client()
	return err
}

func (e *engine) Capabilities(context.Context) (sdk.Capabilities, error) {
	if err := e.load(); err != nil {
		return sdk.Capabilities{}, err
	}
	return sdk.Capabilities{
		Name: "openai", AnyToAny: true, MaxSegments: e.batchN, MaxChars: e.batchC,
		Modes: honoured(),
	}, nil
}

type message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type chatRequest struct {
	Model          string          `json:"model"`
	Messages       []message       `json:"messages"`
	Temperature    float64         `json:"temperature"`
	ResponseFormat *responseFormat `json:"response_format,omitempty"`
}

type responseFormat struct {
	Type string `json:"type"`
}

type item struct {
	ID   int    `json:"id"`
	Text string `json:"text"`
}

type userMessage struct {
	SourceLanguage string `json:"source_language"`
	TargetLanguage string `json:"target_language"`
	Segments       []item `json:"segments"`
}

type chatResponse struct {
	Choices []struct {
		Message      message `json:"message"`
		FinishReason string  `json:"finish_reason"`
	} `json:"choices"`
}

func (e *engine) Translate(ctx context.Context, r sdk.TranslateRequest) (sdk.TranslateResult, error) {
	if err := e.load(); err != nil {
		return sdk.TranslateResult{}, err
	}
	user := userMessage{SourceLanguage: name(r.Source), TargetLanguage: name(r.Target)}
	for i, s := range r.Segments {
		user.Segments = append(user.Segments, item{ID: i + 1, Text: s})
	}
	userJSON, err := json.Marshal(user)
	if err != nil {
		return sdk.TranslateResult{}, err
	}
	body := chatRequest{
		Model: e.model,
		Messages: []message{
			{Role: "system", Content: systemPrompt(r.Mode, r.Source, r.Target)},
			{Role: "user", Content: string(userJSON)},
		},
	}
	if r.Mode == sdk.Extreme {
		body.Temperature = 0.3 // localisation needs some freedom; the others want determinism
	}
	if e.jsonMode {
		body.ResponseFormat = &responseFormat{Type: "json_object"}
	}
	payload, err := json.Marshal(body)
	if err != nil {
		return sdk.TranslateResult{}, err
	}
	var out, warnings []string
	err = e.client.Do(ctx,
		func(ctx context.Context) (*http.Request, error) {
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.url, bytes.NewReader(payload))
			if err != nil {
				return nil, err
			}
			req.Header.Set("Content-Type", "application/json")
			switch {
			case e.key == "":
			case e.apiKeyAuth:
				req.Header.Set("api-key", e.key)
			default:
				req.Header.Set("Authorization", "Bearer "+e.key)
			}
			return req, nil
		},
		classify,
		func(resp httpengine.Response) error {
			var err error
			out, warnings, err = decode(resp.Body, r.Segments)
			return err
		})
	if err != nil {
		return sdk.TranslateResult{}, err
	}
	return sdk.TranslateResult{Segments: out, Warnings: warnings}, nil
}

// decode validates the model's answer against the contract.
func decode(body []byte, src []string) (out, warnings []string, err error) {
	var resp chatResponse
	if err := json.Unmarshal(body, &resp); err != nil {
		return nil, nil, err
	}
	if len(resp.Choices) == 0 {
		return nil, nil, fmt.Errorf("no choices")
	}
	c := resp.Choices[0]
	if c.FinishReason == "length" {
		return nil, nil, &httpengine.Final{Msg: "the model's answer was cut off (finish_reason=length); lower DRAGOMAN_OPENAI_BATCH_CHARS or use a model with more output tokens"}
	}
	content := strings.TrimSpace(c.Message.Content)
	content = strings.TrimPrefix(content, "```json") // some local models fence their JSON
	content = strings.TrimSuffix(strings.TrimPrefix(content, "```"), "```")
	var answer struct {
		Translations []item `json:"translations"`
	}
	if err := json.Unmarshal([]byte(content), &answer); err != nil {
		return nil, nil, fmt.Errorf("the model did not answer with the JSON contract: %v", err)
	}
	if len(answer.Translations) != len(src) {
		return nil, nil, fmt.Errorf("the model answered %d translations for %d segments", len(answer.Translations), len(src))
	}
	out = make([]string, len(src))
	seen := make([]bool, len(src))
	for _, t := range answer.Translations {
		i := t.ID - 1
		if i < 0 || i >= len(src) || seen[i] {
			return nil, nil, fmt.Errorf("the model answered an unknown or repeated id %d", t.ID)
		}
		if strings.TrimSpace(t.Text) == "" && strings.TrimSpace(tagged.Plain(src[i])) != "" {
			return nil, nil, fmt.Errorf("the model left segment %d empty", t.ID)
		}
		seen[i] = true
		// Codes the model changed are repaired by the host, which flags
		// each sentence it repaired for review (links, formatting).
		out[i] = t.Text
	}
	return out, warnings, nil
}

// classify reads OpenAI's {"error":{"message","type","code"}} bodies: a
// used-up quota is a 429 that waiting does not fix.
func classify(r httpengine.Response) string {
	var d struct {
		Error struct {
			Message string `json:"message"`
			Type    string `json:"type"`
			Code    any    `json:"code"`
		} `json:"error"`
	}
	json.Unmarshal(r.Body, &d)
	code := fmt.Sprint(d.Error.Code)
	switch {
	case r.Status == http.StatusTooManyRequests && (code == "insufficient_quota" || d.Error.Type == "insufficient_quota"):
		return "quota exceeded: " + d.Error.Message
	case r.Status == http.StatusUnauthorized || r.Status == http.StatusForbidden:
		return "authorization failed: " + d.Error.Message + "; check DRAGOMAN_OPENAI_API_KEY"
	case r.Status == http.StatusNotFound:
		return "not found (check DRAGOMAN_OPENAI_BASE_URL and DRAGOMAN_OPENAI_MODEL): " + d.Error.Message
	case r.Status >= 400 && r.Status < 500 && r.Status != http.StatusTooManyRequests && r.Status != http.StatusRequestTimeout && r.Status != http.StatusConflict:
		return "request refused: " + d.Error.Message
	}
	return ""
}
