package httpapi

import (
	"bytes"
	"encoding/json"

	"github.com/danielgtaylor/huma/v2"
)

// Contract renders the OpenAPI document as committed under openapi/:
// indented JSON, or YAML, each ending in a newline.
func Contract(o *huma.OpenAPI, asYAML bool) ([]byte, error) {
	if asYAML {
		return o.YAML()
	}
	raw, err := o.MarshalJSON()
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
