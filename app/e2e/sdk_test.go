package e2e

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/openapi/client/gen"
	"github.com/google/uuid"
)

// The README's SDK example, compiled and run against a real server.
func TestSDKExampleRuns(t *testing.T) {
	s := startServer(t, nil, "DRAGOMAN_ENGINES=pseudo")
	_, key, _ := s.account("pro")
	exe := filepath.Join(t.TempDir(), "example")
	build := exec.Command("go", "build", "-o", exe, "./openapi/client/example")
	build.Dir = "../.."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	doc := filepath.Join(t.TempDir(), "report.docx")
	b, _ := os.ReadFile("../../testdata/e2e/english.docx")
	os.WriteFile(doc, b, 0o644)
	run := s.cliCmd(key)
	run.Path, run.Args = exe, []string{exe, doc}
	out, err := run.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "wrote "+filepath.Join(filepath.Dir(doc), "report.es.docx")) {
		t.Fatalf("example: %v\n%s", err, out)
	}
}

// Every operation of the contract, called exactly as the generated client
// calls it (base address .../v1), reaches its handler: none answers with
// the router's "no such endpoint" or 405.
func TestGeneratedClientReachesEveryOperation(t *testing.T) {
	s := startServer(t, nil, "DRAGOMAN_ENGINES=pseudo")
	_, key, _ := s.account("pro")
	hc := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
	c, err := gen.NewClient("https://"+s.https+"/v1", gen.WithHTTPClient(hc), gen.WithRequestEditorFn(func(_ context.Context, r *http.Request) error {
		r.Header.Set("X-API-Key", key)
		return nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	id := uuid.New()
	wh := "no-such-webhook"
	url := "https://example.com/hook"
	events := []gen.WebhookRequestEvents{"job.completed"}
	calls := map[string]func() (*http.Response, error){
		"health":        func() (*http.Response, error) { return c.Health(ctx) },
		"ready":         func() (*http.Response, error) { return c.Ready(ctx) },
		"problemType":   func() (*http.Response, error) { return c.ProblemType(ctx, "quota_exhausted") },
		"languages":     func() (*http.Response, error) { return c.Languages(ctx, nil) },
		"languagePairs": func() (*http.Response, error) { return c.LanguagePairs(ctx) },
		"usage":         func() (*http.Response, error) { return c.Usage(ctx) },
		"listJobs":      func() (*http.Response, error) { return c.ListJobs(ctx, nil) },
		"getJob":        func() (*http.Response, error) { return c.GetJob(ctx, id) },
		"cancelJob":     func() (*http.Response, error) { return c.CancelJob(ctx, id, nil) },
		"downloadJob":   func() (*http.Response, error) { return c.DownloadJob(ctx, id, nil) },
		"translate": func() (*http.Response, error) {
			return c.TranslateWithBody(ctx, "multipart/form-data; boundary=x", strings.NewReader("--x--\r\n"))
		},
		"translateUrl": func() (*http.Response, error) {
			return c.TranslateUrl(ctx, gen.TranslateUrlJSONRequestBody{Url: "https://127.0.0.1/x.docx"})
		},
		"registerWebhook": func() (*http.Response, error) {
			return c.RegisterWebhook(ctx, gen.WebhookRequest{Url: url, Events: &events})
		},
		"listWebhooks":      func() (*http.Response, error) { return c.ListWebhooks(ctx) },
		"getWebhook":        func() (*http.Response, error) { return c.GetWebhook(ctx, wh) },
		"updateWebhook":     func() (*http.Response, error) { return c.UpdateWebhook(ctx, wh, gen.WebhookChange{}) },
		"testWebhook":       func() (*http.Response, error) { return c.TestWebhook(ctx, wh) },
		"webhookDeliveries": func() (*http.Response, error) { return c.WebhookDeliveries(ctx, wh, nil) },
		"deleteWebhook":     func() (*http.Response, error) { return c.DeleteWebhook(ctx, wh) },
		"registerWebhookApi": func() (*http.Response, error) {
			return c.RegisterWebhookApi(ctx, gen.WebhookRequest{Url: url, Events: &events})
		},
		"listWebhooksApi":  func() (*http.Response, error) { return c.ListWebhooksApi(ctx) },
		"getWebhookApi":    func() (*http.Response, error) { return c.GetWebhookApi(ctx, wh) },
		"updateWebhookApi": func() (*http.Response, error) { return c.UpdateWebhookApi(ctx, wh, gen.WebhookChange{}) },
		"testWebhookApi":   func() (*http.Response, error) { return c.TestWebhookApi(ctx, wh) },
		"webhookDeliveriesApi": func() (*http.Response, error) {
			return c.WebhookDeliveriesApi(ctx, wh, nil)
		},
		"deleteWebhookApi": func() (*http.Response, error) { return c.DeleteWebhookApi(ctx, wh) },
		"exportJobXliff":   func() (*http.Response, error) { return c.ExportJobXliff(ctx, id, nil) },
		"importJobXliff": func() (*http.Response, error) {
			return c.ImportJobXliffWithBody(ctx, id, nil, "application/xliff+xml", strings.NewReader("<xliff/>"))
		},
		"listJobSegments": func() (*http.Response, error) { return c.ListJobSegments(ctx, id, nil) },
		"editJobSegment": func() (*http.Response, error) {
			return c.EditJobSegment(ctx, id, "1", nil, gen.SegmentEdit{Target: "x"})
		},
		"exportMemoryTmx": func() (*http.Response, error) { return c.ExportMemoryTmx(ctx) },
		"createGlossary": func() (*http.Response, error) {
			entries := []gen.GlossaryEntry{{Source: "file", Target: "fichero"}}
			return c.CreateGlossary(ctx, gen.GlossaryJSON{Name: "g", SourceLang: "English", TargetLang: "Spanish", Entries: &entries})
		},
		"listGlossaries":    func() (*http.Response, error) { return c.ListGlossaries(ctx) },
		"getGlossary":       func() (*http.Response, error) { return c.GetGlossary(ctx, "no-such-glossary") },
		"deleteGlossary":    func() (*http.Response, error) { return c.DeleteGlossary(ctx, "no-such-glossary") },
		"getDoNotTranslate": func() (*http.Response, error) { return c.GetDoNotTranslate(ctx) },
		"putDoNotTranslate": func() (*http.Response, error) {
			terms := []string{"Dragoman"}
			return c.PutDoNotTranslate(ctx, gen.DoNotTranslate{Terms: &terms})
		},
		"getBatch":   func() (*http.Response, error) { return c.GetBatch(ctx, id) },
		"confirmJob": func() (*http.Response, error) { return c.ConfirmJob(ctx, id) },
		"quote": func() (*http.Response, error) {
			return c.Quote(ctx, gen.QuoteJSONRequestBody{Url: "https://127.0.0.1/x.docx"})
		},
		"importMemoryTmx": func() (*http.Response, error) {
			return c.ImportMemoryTmxWithBody(ctx, "application/x-tmx+xml", strings.NewReader(`<tmx version="1.4"><body/></tmx>`))
		},
	}
	// The contract's operations are exactly these.
	var contract struct {
		Paths map[string]map[string]struct {
			OperationID string `json:"operationId"`
		} `json:"paths"`
	}
	raw, _ := os.ReadFile("../../openapi/openapi.json")
	if err := json.Unmarshal(raw, &contract); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, item := range contract.Paths {
		for _, op := range item {
			n++
			if calls[op.OperationID] == nil {
				t.Errorf("operation %s is not called by this test", op.OperationID)
			}
		}
	}
	if n != len(calls) {
		t.Errorf("%d operations in the contract, %d called", n, len(calls))
	}
	for name, call := range calls {
		resp, err := call()
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == 405 || bytes.Contains(body, []byte("no such endpoint")) || resp.StatusCode >= 500 {
			t.Errorf("%s %s: %d %s", name, resp.Request.URL.Path, resp.StatusCode, body)
		}
	}
}
