package pipeline

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/core/segment"
)

// The stages store segments unit by unit (issue 13 §4: json.Encoder and
// json.Decoder each held the whole document's JSON in memory): the bytes
// are json.Marshal's, and they read back into the same document.
func TestDocumentJSONIsStreamedUnitByUnit(t *testing.T) {
	doc := &segment.Document{Format: "docx"}
	for i := range 1000 {
		doc.Units = append(doc.Units, segment.Unit{
			ID: "u" + strings.Repeat("x", i%7), Part: "word/document.xml",
			Codes:    []segment.Code{{ID: 1, Kind: segment.Paired, Type: "fmt", Native: `<w:b/>`}},
			Segments: []segment.Segment{{ID: "s", Source: `a <g id="1">b</g> &amp; "c"`, Target: "é\u2028"}},
		})
	}
	var got bytes.Buffer
	if err := encodeDoc(&got, doc); err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(doc)
	if !bytes.Equal(bytes.TrimSpace(got.Bytes()), want) {
		t.Fatalf("streamed JSON differs from json.Marshal's:\n%.300s\n%.300s", got.Bytes(), want)
	}
	back, err := decodeDoc(bytes.NewReader(got.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, doc) {
		t.Fatal("the document read back differs")
	}
	// Unknown fields are skipped; a truncated file is an error.
	if d, err := decodeDoc(strings.NewReader(`{"extra":{"a":[1]},"units":[],"format":"docx"}`)); err != nil || d.Format != "docx" {
		t.Fatalf("%+v %v", d, err)
	}
	if d, err := decodeDoc(strings.NewReader(`{"format":"docx","units":null}`)); err != nil || d.Format != "docx" || len(d.Units) != 0 {
		t.Fatalf("%+v %v", d, err)
	}
	if _, err := decodeDoc(bytes.NewReader(got.Bytes()[:got.Len()/2])); err == nil {
		t.Fatal("a truncated document was read without error")
	}
}
