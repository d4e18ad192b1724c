package httpapi

import (
	"bytes"
	"os"
	"testing"

	"github.com/dragoman-translate/dragoman/core/service"
)

// TestCommittedContractMatchesCode fails when openapi/ drifts from the
// operations registered here; `make openapi` regenerates it.
func TestCommittedContractMatchesCode(t *testing.T) {
	o := New(service.UseCases{}, nil).OpenAPI()
	for file, asYAML := range map[string]bool{"../../openapi/openapi.json": false, "../../openapi/openapi.yaml": true} {
		want, err := Contract(o, asYAML)
		if err != nil {
			t.Fatal(err)
		}
		have, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(have, want) {
			t.Errorf("%s differs from the contract the code generates: run `make openapi` and commit it", file)
		}
	}
}

func TestContractDeclaresEveryEndpointAndTheErrorBody(t *testing.T) {
	o := New(service.UseCases{}, nil).OpenAPI()
	want := map[string][]string{
		"/health": {"get"}, "/languages": {"get"}, "/usage": {"get"}, "/translate": {"post"},
		"/translate-url": {"post"}, "/jobs/{job_id}": {"get"}, "/jobs/{job_id}/download": {"get"},
		"/webhooks": {"post"}, "/api/webhooks": {"post"}, "/jobs": {"get"},
	}
	for path, methods := range want {
		item := o.Paths[path]
		if item == nil {
			t.Errorf("missing path %s", path)
			continue
		}
		for _, m := range methods {
			op := map[string]any{"get": item.Get, "post": item.Post}[m]
			if op == nil {
				t.Errorf("missing %s %s", m, path)
			}
		}
	}
	tr := o.Paths["/translate"].Post
	for _, code := range []string{"202", "401", "402", "403", "413", "422", "429"} {
		r := tr.Responses[code]
		if r == nil {
			t.Errorf("POST /translate lacks response %s", code)
			continue
		}
		if code != "202" {
			mt := r.Content["application/problem+json"]
			if mt == nil || mt.Schema == nil || mt.Schema.Ref != "#/components/schemas/Problem" {
				t.Errorf("POST /translate %s does not use the Problem body", code)
			}
		}
	}
	if tr.Responses["429"].Headers["Retry-After"] == nil {
		t.Error("429 does not declare Retry-After")
	}
	if tr.RequestBody == nil || tr.RequestBody.Content["multipart/form-data"] == nil {
		t.Error("POST /translate does not declare its multipart body")
	}
	if d := o.Paths["/jobs/{job_id}"].Delete; d == nil || d.Responses["200"] == nil || d.Responses["204"] == nil {
		t.Error("DELETE /jobs/{job_id} must declare 200 (cancelled) and 204 (deleted)")
	}
	if o.Paths["/api/webhooks"].Post.Servers[0].URL != "/" {
		t.Error("/api/webhooks must declare that it lies outside /v1")
	}
}
