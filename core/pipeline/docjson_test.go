package pipeline

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/core/segment"
)

// A pass stores the translated segments unit by unit (issue 13 §4:
// json.Encoder held the whole document's JSON in memory): the bytes are
// json.Marshal's, and they read back into the same document.
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
	w := &docWriter{w: &got}
	w.begin(doc.Format)
	for i := range doc.Units {
		if err := w.unit(&doc.Units[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.end(); err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(doc)
	if !bytes.Equal(bytes.TrimSpace(got.Bytes()), want) {
		t.Fatalf("streamed JSON differs from json.Marshal's:\n%.300s\n%.300s", got.Bytes(), want)
	}
	var back segment.Document
	if err := json.Unmarshal(got.Bytes(), &back); err != nil || !reflect.DeepEqual(&back, doc) {
		t.Fatalf("the document read back differs: %v", err)
	}
}
