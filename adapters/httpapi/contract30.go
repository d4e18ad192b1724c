package httpapi

import (
	"bytes"
	"encoding/json"

	"github.com/danielgtaylor/huma/v2"
)

// Contract30 renders the contract downgraded to OpenAPI 3.0.3 as indented
// JSON: code generators (oapi-codegen) read 3.0, and the Go SDK under
// openapi/client is generated from this form. The X-API-Key header is left
// to the apiKey security scheme instead of being a parameter of every
// operation, so generated clients set it once.
func Contract30(o *huma.OpenAPI) ([]byte, error) {
	raw, err := o.Downgrade()
	if err != nil {
		return nil, err
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, err
	}
	paths, _ := doc["paths"].(map[string]any)
	for _, item := range paths {
		ops, _ := item.(map[string]any)
		for _, op := range ops {
			m, ok := op.(map[string]any)
			if !ok {
				continue
			}
			params, _ := m["parameters"].([]any)
			kept := params[:0]
			for _, p := range params {
				if pm, ok := p.(map[string]any); ok && pm["in"] == "header" && pm["name"] == "X-API-Key" {
					continue
				}
				kept = append(kept, p)
			}
			if len(kept) == 0 {
				delete(m, "parameters")
			} else if params != nil {
				m["parameters"] = kept
			}
		}
	}
	if raw, err = json.Marshal(doc); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}
