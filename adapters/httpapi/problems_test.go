package httpapi

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/core/service"
)

// Every error path answers an RFC 9457 problem with today's members kept:
// huma's validation, the router's 404 and 405, and a handler's own.
func TestErrorsAreProblemDetails(t *testing.T) {
	h := New(service.UseCases{}, nil).Handler()
	cases := []struct {
		method, path string
		status       int
		typ, title   string
		allow        string
		field        string
	}{
		{"GET", "/v1/nowhere", 404, "/v1/problems/not_found", "Not found", "", ""},
		{"POST", "/v1/health", 405, "/v1/problems/method_not_allowed", "Method not allowed", "GET, HEAD", ""},
		{"DELETE", "/api/webhooks", 405, "/v1/problems/method_not_allowed", "Method not allowed", "GET, HEAD, POST", ""},
		{"GET", "/v1/problems/" + strings.Repeat("x", 65), 422, "/v1/problems/unprocessable", "Request not processable", "", "path.code"},
		{"GET", "/v1/problems/nonsense", 404, "/v1/problems/not_found", "Not found", "", ""},
	}
	for _, c := range cases {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(c.method, c.path, nil))
		var p map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil {
			t.Fatalf("%s %s: %v: %s", c.method, c.path, err, rec.Body)
		}
		if rec.Code != c.status || rec.Header().Get("Content-Type") != "application/problem+json" {
			t.Errorf("%s %s: %d %s", c.method, c.path, rec.Code, rec.Header().Get("Content-Type"))
		}
		if p["type"] != c.typ || p["title"] != c.title || p["status"] != float64(c.status) || p["instance"] != c.path ||
			p["detail"] == "" || p["detail"] != p["message"] || p["code"] != strings.TrimPrefix(c.typ, "/v1/problems/") {
			t.Errorf("%s %s: %v", c.method, c.path, p)
		}
		if got := rec.Header().Get("Allow"); got != c.allow {
			t.Errorf("%s %s: Allow %q, want %q", c.method, c.path, got, c.allow)
		}
		if c.field != "" {
			errs, _ := p["errors"].([]any)
			if len(errs) == 0 || errs[0].(map[string]any)["location"] != c.field {
				t.Errorf("%s %s: errors %v", c.method, c.path, p["errors"])
			}
		}
	}

	// The type resolves (against the server's address) to its description.
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/v1/problems/quota_exhausted", nil))
	var ty map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &ty)
	if rec.Code != 200 || ty["type"] != "/v1/problems/quota_exhausted" || ty["status"] != float64(402) || ty["description"] == "" {
		t.Errorf("problem type: %d %v", rec.Code, ty)
	}
}

// The probes need no key and say so; the webhooks section describes the
// three deliveries with the signed headers.
func TestContractDeclaresProbesOpenAndDeliveries(t *testing.T) {
	o := New(service.UseCases{}, nil).OpenAPI()
	for _, p := range []string{"/health", "/ready"} {
		if s := o.Paths[p].Get.Security; s == nil || len(s) != 0 {
			t.Errorf("%s: security %v, want []", p, s)
		}
	}
	raw, err := Contract(o, false)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Webhooks map[string]struct {
			Post struct {
				Parameters []struct {
					Name     string `json:"name"`
					Required bool   `json:"required"`
				} `json:"parameters"`
				RequestBody struct {
					Content map[string]struct {
						Schema struct {
							Ref string `json:"$ref"`
						} `json:"schema"`
					} `json:"content"`
				} `json:"requestBody"`
			} `json:"post"`
		} `json:"webhooks"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"job.completed": "JobEvent", "job.failed": "JobEvent", "webhook.test": "TestEvent"}
	for ev, schema := range want {
		w, ok := doc.Webhooks[ev]
		if !ok {
			t.Errorf("webhooks lacks %s", ev)
			continue
		}
		if got := w.Post.RequestBody.Content["application/json"].Schema.Ref; got != "#/components/schemas/"+schema {
			t.Errorf("%s body %q", ev, got)
		}
		names := map[string]bool{}
		for _, p := range w.Post.Parameters {
			names[p.Name] = p.Required
		}
		for _, h := range []string{"X-Webhook-Signature", "X-Webhook-Id", "X-Webhook-Event", "X-Webhook-Attempt"} {
			if !names[h] {
				t.Errorf("%s: header %s not declared required", ev, h)
			}
		}
	}
}
