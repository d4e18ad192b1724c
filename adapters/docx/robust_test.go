package docx

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/core/segment"
)

const contentTypesXML = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`

func pkgOf(t *testing.T, document string, extra func(zw *zip.Writer), overrides ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	ct := strings.Replace(contentTypesXML, "</Types>", strings.Join(overrides, "")+"</Types>", 1)
	for name, s := range map[string]string{"[Content_Types].xml": ct, "word/document.xml": document} {
		w, _ := zw.Create(name)
		io.WriteString(w, s)
	}
	if extra != nil {
		extra(zw)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

const docHead = `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`

func TestXMLBombRefused(t *testing.T) {
	bomb := `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>` +
		`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>&lol2;</w:t></w:r></w:p></w:body></w:document>`
	data := pkgOf(t, bomb, nil)
	_, err := ExtractReader(context.Background(), bytes.NewReader(data), int64(len(data)))
	if !errors.Is(err, ErrNotDocx) || !strings.Contains(err.Error(), "DTD") {
		t.Fatalf("bomb: %v", err)
	}
	// an entity without a DTD is an error too, not silently kept
	data = pkgOf(t, docHead+`<w:p><w:r><w:t>a &ext; b</w:t></w:r></w:p></w:body></w:document>`, nil)
	if _, err := ExtractReader(context.Background(), bytes.NewReader(data), int64(len(data))); !errors.Is(err, ErrNotDocx) {
		t.Fatalf("undefined entity: %v", err)
	}
}

func TestZipBombRefused(t *testing.T) {
	data := pkgOf(t, docHead+`<w:p><w:r><w:t>x</w:t></w:r></w:p></w:body></w:document>`, func(zw *zip.Writer) {
		w, _ := zw.Create("word/footer1.xml") // 64 MB of zeros compresses ~1000:1
		zero := make([]byte, 1<<20)
		for i := 0; i < 64; i++ {
			w.Write(zero)
		}
	}, `<Override PartName="/word/footer1.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footer+xml"/>`)
	_, err := ExtractReader(context.Background(), bytes.NewReader(data), int64(len(data)))
	// Refused by the ratio check or, first, by the per-part unpacked limit.
	if !errors.Is(err, ErrNotDocx) || !(strings.Contains(err.Error(), "zip bomb") || strings.Contains(err.Error(), "unpacks to")) {
		t.Fatalf("zip bomb: %v", err)
	}
}

func TestCorruptZip(t *testing.T) {
	for _, data := range [][]byte{nil, []byte("not a zip at all"), pkgOf(t, docHead, nil)[:40]} {
		_, err := ExtractReader(context.Background(), bytes.NewReader(data), int64(len(data)))
		if !errors.Is(err, ErrNotDocx) {
			t.Errorf("corrupt input: %v", err)
		}
	}
	// well-formedness is checked: a mismatched tag is an error
	data := pkgOf(t, docHead+`<w:p><w:r><w:t>x</w:r></w:p></w:body></w:document>`, nil)
	if _, err := ExtractReader(context.Background(), bytes.NewReader(data), int64(len(data))); !errors.Is(err, ErrNotDocx) {
		t.Errorf("malformed XML: %v", err)
	}
}

// Whatever an engine returns, the output is well-formed XML.
func TestHostileTargetsStayValidXML(t *testing.T) {
	data := pkgOf(t, docHead+`<w:p><w:r><w:t xml:space="preserve">Hello </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>bold</w:t></w:r><w:r><w:tab/></w:r><w:r><w:t>end.</w:t></w:r></w:p></w:body></w:document>`, nil)
	targets := []string{
		"\x00\x01\x1b control <g id=\"1\">chars</g>\ufffe\xff\xfe",
		`]]></w:t></w:r><w:r><w:t>injected`,
		`<g id="1"><g id="1"><x id="2"/><x id="2"/></g>`,
		`&amp;&lt;&gt;"'&#0;&bogus;`,
		`</g></g><g id="9">x`,
	}
	for _, tgt := range targets {
		doc, err := ExtractReader(context.Background(), bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		doc.EachSegment(func(_ *segment.Unit, s *segment.Segment) { s.Target = tgt })
		var out bytes.Buffer
		if _, err := AssembleReader(context.Background(), bytes.NewReader(data), int64(len(data)), doc, &out); err != nil {
			t.Fatal(err)
		}
		wellFormed(t, tgt, out.Bytes())
		if _, err := ExtractReader(context.Background(), bytes.NewReader(out.Bytes()), int64(out.Len())); err != nil {
			t.Errorf("%q: output does not re-extract: %v", tgt, err)
		}
	}
}
