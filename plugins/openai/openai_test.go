package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/dragoman-translate/dragoman/adapters/pluginhost/enginetest"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
)

var pluginDir string

func TestMain(m *testing.M) { enginetest.Main(m, "openai", &pluginDir) }

// chatServer is the documented chat-completions contract, with a model
// that follows Dragoman's JSON contract by upper-casing the text.
type chatServer struct {
	t       *testing.T
	mu      sync.Mutex
	system  []string                 // system prompts received
	answer  func(segs []item) string // overrides the model's content
	finish  string
	authHdr string
}

func (c *chatServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	fail := func(status int, typ, msg string) {
		c.t.Errorf("request refused: %d %s", status, msg)
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"error":{"message":%q,"type":%q,"param":null,"code":null}}`, msg, typ)
	}
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		fail(404, "invalid_request_error", "Unknown request URL: "+r.URL.Path)
		return
	}
	want := "Bearer sk-test"
	got := r.Header.Get("Authorization")
	if c.authHdr == "api-key" {
		want, got = "sk-test", r.Header.Get("api-key")
	}
	if got != want {
		fail(401, "invalid_request_error", "Incorrect API key provided")
		return
	}
	var req chatRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model != "gpt-test" || len(req.Messages) != 2 ||
		req.Messages[0].Role != "system" || req.Messages[1].Role != "user" || req.ResponseFormat == nil || req.ResponseFormat.Type != "json_object" {
		fail(400, "invalid_request_error", fmt.Sprintf("bad request %v %+v", err, req))
		return
	}
	var user userMessage
	if err := json.Unmarshal([]byte(req.Messages[1].Content), &user); err != nil || user.TargetLanguage == "" {
		fail(400, "invalid_request_error", "user message is not the segment JSON")
		return
	}
	c.mu.Lock()
	c.system = append(c.system, req.Messages[0].Content)
	answer, finish := c.answer, c.finish
	c.mu.Unlock()
	var content string
	if answer != nil {
		content = answer(user.Segments)
	} else {
		var out struct {
			Translations []item `json:"translations"`
		}
		for i := len(user.Segments) - 1; i >= 0; i-- { // any order is valid
			s := user.Segments[i]
			out.Translations = append(out.Translations, item{ID: s.ID, Text: enginetest.Upper(s.Text)})
		}
		b, _ := json.Marshal(out)
		content = string(b)
	}
	if finish == "" {
		finish = "stop"
	}
	resp := map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion", "model": req.Model,
		"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": content}, "finish_reason": finish}},
		"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
	}
	json.NewEncoder(w).Encode(resp)
}

func env(url string) map[string]string {
	return map[string]string{"DRAGOMAN_OPENAI_BASE_URL": url + "/v1", "DRAGOMAN_OPENAI_API_KEY": "sk-test", "DRAGOMAN_OPENAI_MODEL": "gpt-test", "DRAGOMAN_OPENAI_BATCH_SEGMENTS": "20"}
}

func TestOpenAIWire(t *testing.T) {
	enginetest.Suite{
		Engine: "openai", Dir: pluginDir, Source: "en", Target: "he",
		Env:       env,
		Vendor:    func(t *testing.T) *enginetest.Vendor { return enginetest.NewVendor(t, &chatServer{t: t}) },
		Required:  []string{"DRAGOMAN_OPENAI_MODEL"},
		Malformed: `{"choices":[{"message":{"role":"assistant","content":"Sure! Here is the translation: ..."},"finish_reason":"stop"}]}`,
		Refusals: []enginetest.Refusal{
			{Fault: enginetest.Fault{Status: 429, Body: `{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}`}, Want: "quota exceeded"},
			{Fault: enginetest.Fault{Status: 401, Body: `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`}, Want: "authorization failed"},
			{Fault: enginetest.Fault{Status: 400, Body: `{"error":{"message":"This model's maximum context length is 8192 tokens","type":"invalid_request_error","code":"context_length_exceeded"}}`}, Want: "maximum context length"},
		},
		BigDoc: 50,
	}.Run(t)
}

func start(t *testing.T, c *chatServer, extra map[string]string) (ports.Engine, *enginetest.Vendor) {
	t.Helper()
	v := enginetest.NewVendor(t, c)
	e2 := env(v.URL)
	e2["DRAGOMAN_OPENAI_BACKOFF"] = "10ms"
	e2["DRAGOMAN_OPENAI_MAX_RETRIES"] = "2"
	for k, val := range extra {
		e2[k] = val
	}
	e, err := enginetest.Start(t, pluginDir, "openai", e2)
	if err != nil {
		t.Fatal(err)
	}
	return e, v
}

func TestModesArePromptPolicies(t *testing.T) {
	c := &chatServer{t: t}
	e, _ := start(t, c, nil)
	if len(e.Caps.Modes) != len(translation.Modes) {
		t.Errorf("modes %v", e.Caps.Modes)
	}
	want := map[translation.Mode]string{
		translation.Full:         "fluent, natural Hebrew",
		translation.Literal:      "word for word: keep the English word order",
		translation.Extreme:      "Localise fully for a native Hebrew reader",
		translation.Professional: "Keep technical terms",
	}
	for _, m := range translation.Modes {
		if _, err := e.Provider.Translate(t.Context(), ports.TranslateRequest{Source: "en", Target: "he", Mode: m, Segments: enginetest.Segments}); err != nil {
			t.Fatal(err)
		}
		c.mu.Lock()
		p := c.system[len(c.system)-1]
		c.mu.Unlock()
		if !strings.Contains(p, want[m]) || !strings.Contains(p, `{"translations"`) {
			t.Errorf("mode %s prompt %q", m, p)
		}
	}
}

func TestContractViolations(t *testing.T) {
	cases := map[string]func(segs []item) string{
		"repeated id": func(segs []item) string {
			return `{"translations":[{"id":1,"text":"A"},{"id":1,"text":"B"},{"id":3,"text":"C"}]}`
		},
		"missing segment": func(segs []item) string { return `{"translations":[{"id":1,"text":"A"}]}` },
		"empty text": func(segs []item) string {
			return `{"translations":[{"id":1,"text":""},{"id":2,"text":"B"},{"id":3,"text":"C"}]}`
		},
		"prose": func(segs []item) string { return "Here you go: A, B, C" },
	}
	for name, answer := range cases {
		t.Run(name, func(t *testing.T) {
			c := &chatServer{t: t, answer: answer}
			e, v := start(t, c, nil)
			v.ResetRequests()
			_, err := e.Provider.Translate(t.Context(), ports.TranslateRequest{Source: "en", Target: "de", Mode: translation.Full, Segments: enginetest.Segments})
			if err == nil || !strings.Contains(err.Error(), "openai: malformed response") || v.Requests() != 3 {
				t.Errorf("error %v after %d requests", err, v.Requests())
			}
		})
	}
}

// A fenced JSON answer is read, and one that dropped a code is
// accepted as it is.
func TestFencedJSONAndBrokenCodesAreAccepted(t *testing.T) {
	c := &chatServer{t: t, answer: func(segs []item) string {
		var out struct {
			Translations []item `json:"translations"`
		}
		for _, s := range segs {
			out.Translations = append(out.Translations, item{ID: s.ID, Text: strings.ReplaceAll(s.Text, `<x id="2"/>`, "")})
		}
		b, _ := json.Marshal(out)
		return "```json\n" + string(b) + "\n```"
	}}
	e, _ := start(t, c, nil)
	res, err := e.Provider.Translate(t.Context(), ports.TranslateRequest{Source: "en", Target: "de", Mode: translation.Full, Segments: enginetest.Segments})
	if err != nil {
		t.Fatal(err)
	}
	// The dropped code comes back as the model left it, for the host to
	// repair and flag on its sentence; no warning names segments.
	dropped := 0
	for i, s := range res.Segments {
		if strings.Contains(enginetest.Segments[i], `<x id="2"/>`) && !strings.Contains(s, `<x id="2"/>`) {
			dropped++
		}
	}
	if len(res.Warnings) != 0 || dropped == 0 {
		t.Errorf("warnings %q, %d segments with the dropped code", res.Warnings, dropped)
	}
}

func TestTruncatedAnswerIsFinal(t *testing.T) {
	c := &chatServer{t: t, finish: "length"}
	e, v := start(t, c, nil)
	v.ResetRequests()
	_, err := e.Provider.Translate(t.Context(), ports.TranslateRequest{Source: "en", Target: "de", Mode: translation.Full, Segments: enginetest.Segments})
	if err == nil || !strings.Contains(err.Error(), "cut off") || v.Requests() != 1 {
		t.Errorf("error %v after %d requests", err, v.Requests())
	}
}

func TestAzureStyleKeyAndLocalServerWithoutKey(t *testing.T) {
	c := &chatServer{t: t, authHdr: "api-key"}
	e, _ := start(t, c, map[string]string{"DRAGOMAN_OPENAI_AUTH_HEADER": "api-key"})
	if _, err := e.Provider.Translate(t.Context(), ports.TranslateRequest{Source: "en", Target: "de", Mode: translation.Full, Segments: enginetest.Segments}); err != nil {
		t.Error(err)
	}
	// The default OpenAI URL needs a key; the handshake says which variable.
	_, err := enginetest.Start(t, pluginDir, "openai", map[string]string{"DRAGOMAN_OPENAI_BASE_URL": "", "DRAGOMAN_OPENAI_API_KEY": "", "DRAGOMAN_OPENAI_MODEL": "gpt-test"})
	if err == nil || !strings.Contains(err.Error(), "DRAGOMAN_OPENAI_API_KEY") {
		t.Errorf("start without a key for api.openai.com: %v", err)
	}
}
