package httpapi

import (
	"bytes"
	"encoding/json"

	"github.com/danielgtaylor/huma/v2"
)

// Contract30 renders the contract downgraded to OpenAPI 3.0.3 as indented
// JSON: code generators (oapi-codegen) read 3.0, and the Go SDK under
// openapi/client is generated from this form.
func Contract30(o *huma.OpenAPI) ([]byte, error) {
	raw, err := o.Downgrade()
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}
