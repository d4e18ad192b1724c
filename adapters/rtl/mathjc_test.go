package rtl

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/core/ports"
)

// A display equation's m:jc is physical, not logical like w:jc: in
// aspose-Formatted_elements translated to Arabic the left-aligned
// equation stayed at the left of the mirrored page (seen on the rendered
// page; with m:jc="right" LibreOffice puts it flush with the right
// margin). The document default, settings' m:defJc, mirrors alike.
func TestMirrorsMathJustification(t *testing.T) {
	const m = `xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"`
	eq := func(jc string) string {
		return `<w:p><m:oMathPara ` + m + `><m:oMathParaPr><m:jc m:val="` + jc + `"/></m:oMathParaPr><m:oMath><m:r><m:t>x=1</m:t></m:r></m:oMath></m:oMathPara></w:p><w:p><w:r><w:t>نص</w:t></w:r></w:p>`
	}
	settings := `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:settings xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" ` + m + `><m:mathPr><m:mathFont m:val="Cambria Math"/><m:defJc m:val="left"/></m:mathPr></w:settings>`
	for _, c := range []struct{ from, to, in, want, defJc string }{
		{"en", "ar", "left", `<m:jc m:val="right"/>`, `<m:defJc m:val="right"/>`},
		{"he", "en", "right", `<m:jc m:val="left"/>`, `<m:defJc m:val="right"/>`},
		{"en", "ar", "center", `<m:jc m:val="center"/>`, `<m:defJc m:val="right"/>`},
		{"ar", "he", "left", `<m:jc m:val="left"/>`, `<m:defJc m:val="left"/>`}, // same direction: nothing mirrored
	} {
		doc := withPart(t, miniDocx(t, eq(c.in)), "word/settings.xml", settings)
		var out bytes.Buffer
		if _, err := New(Options{}).Apply(context.Background(), newBlob(doc), ports.LayoutRequest{SourceLang: c.from, TargetLang: c.to}, &out); err != nil {
			t.Fatal(err)
		}
		if got := documentXML(t, out.Bytes()); !strings.Contains(got, c.want) {
			t.Errorf("%s→%s, m:jc %s: want %s in\n%s", c.from, c.to, c.in, c.want, got)
		}
		if got := partOf(t, out.Bytes(), "word/settings.xml"); !strings.Contains(got, c.defJc) {
			t.Errorf("%s→%s: want %s in\n%s", c.from, c.to, c.defJc, got)
		}
	}
}

// withPart returns docx with one more part (no relationship needed for
// parts read by their fixed name, as settings.xml is).
func withPart(t *testing.T, docx []byte, name, content string) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(docx), int64(len(docx)))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, f := range zr.File {
		rc, _ := f.Open()
		w, _ := zw.Create(f.Name)
		io.Copy(w, rc)
		rc.Close()
	}
	w, _ := zw.Create(name)
	io.WriteString(w, content)
	zw.Close()
	return b.Bytes()
}
