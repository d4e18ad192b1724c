package rtl

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/adapters/rtl/rtltest"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// mixedBody is a document nobody tuned for (issue 10 §1): mostly Latin
// text, so detection says French, but right-to-left paragraphs with
// Arabic runs, a bidiVisual table with bidi cells, and an RTL section.
const mixedBody = `<w:p><w:r><w:t>Le rapport annuel présente les résultats du groupe, ses filiales, ses marchés et ses perspectives pour les années à venir, avec les comptes consolidés.</w:t></w:r></w:p>` +
	`<w:p><w:pPr><w:bidi/><w:jc w:val="left"/></w:pPr><w:r><w:rPr><w:sz w:val="24"/><w:rtl/></w:rPr><w:t>التقرير السنوي</w:t></w:r></w:p>` +
	`<w:p><w:pPr><w:bidi/></w:pPr><w:r><w:t>Les chiffres sont donnés en euros.</w:t></w:r></w:p>` +
	`<w:tbl><w:tblPr><w:bidiVisual/><w:tblW w:w="5000" w:type="pct"/></w:tblPr><w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/></w:tblGrid>` +
	`<w:tr><w:tc><w:p><w:pPr><w:bidi/></w:pPr><w:r><w:t>Année</w:t></w:r></w:p></w:tc><w:tc><w:p><w:pPr><w:bidi/></w:pPr><w:r><w:rPr><w:rtl/></w:rPr><w:t>السنة</w:t></w:r></w:p></w:tc></w:tr></w:tbl>` +
	`<w:tbl><w:tblPr><w:tblW w:w="5000" w:type="pct"/></w:tblPr><w:tblGrid><w:gridCol w:w="3000"/></w:tblGrid>` +
	`<w:tr><w:tc><w:p><w:pPr><w:bidi/></w:pPr><w:r><w:t>Total</w:t></w:r></w:p></w:tc></w:tr></w:tbl>` +
	`<w:p><w:pPr><w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1000" w:bottom="1440" w:left="2000" w:header="720" w:footer="720" w:gutter="0"/><w:bidi/></w:sectPr></w:pPr></w:p>`

// styledDocx is miniDocx with a related style sheet (docDefaults and
// Normal), as every document Word writes has.
func styledDocx(t *testing.T, body string) []byte {
	t.Helper()
	return styledDocxWith(t, body, `<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri"/><w:sz w:val="22"/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr/></w:pPrDefault></w:docDefaults><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>`)
}

// styledDocxWith is miniDocx with a related style sheet holding styles.
func styledDocxWith(t *testing.T, body, styles string) []byte {
	t.Helper()
	mini := miniDocx(t, body)
	zr, err := zip.NewReader(bytes.NewReader(mini), int64(len(mini)))
	if err != nil {
		t.Fatal(err)
	}
	const ct = `<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>`
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, f := range zr.File {
		if f.Name != "[Content_Types].xml" {
			if err := zw.Copy(f); err != nil {
				t.Fatal(err)
			}
			continue
		}
		rc, _ := f.Open()
		data, _ := io.ReadAll(rc)
		rc.Close()
		w, _ := zw.Create(f.Name)
		io.WriteString(w, strings.Replace(string(data), "</Types>", ct, 1))
	}
	for name, data := range map[string]string{
		"word/_rels/document.xml.rels": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`,
		"word/styles.xml":              `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">` + styles + `</w:styles>`,
	} {
		w, _ := zw.Create(name)
		io.WriteString(w, data)
	}
	zw.Close()
	return b.Bytes()
}

// applyPair runs the layout on a pseudo-translated document and checks the
// output with the RTL oracle.
func applyPair(t *testing.T, body, from, to string) (out []byte, xml string, fid any) {
	t.Helper()
	in := pseudoTranslate(t, styledDocx(t, body), map[string]string{"en": "en", "fr": "en", "ar": "ar", "he": "he"}[to])
	var buf bytes.Buffer
	f, err := New(Options{}).Apply(context.Background(), newBlob(in), ports.LayoutRequest{SourceLang: from, TargetLang: to}, &buf)
	if err != nil {
		t.Fatal(err)
	}
	rtl := to == "ar" || to == "he"
	fs, _, err := rtltest.CheckXML(in, buf.Bytes(), rtltest.Target{RTL: rtl, Lang: to, ForceTwins: rtl, Covers: rtltest.NewFontconfig().Covers})
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range fs {
		t.Errorf("%s→%s: %s", from, to, x)
	}
	if f == nil {
		return buf.Bytes(), documentXML(t, buf.Bytes()), nil
	}
	return buf.Bytes(), documentXML(t, buf.Bytes()), f
}

// TestMixedDirectionByDocument: the direction comes from the document, not
// from the detected language. French-detected, laid out right to left:
// fully LTR in English (every table with an explicit bidiVisual="0"),
// fully RTL in Arabic.
func TestMixedDirectionByDocument(t *testing.T) {
	_, en, fid := applyPair(t, mixedBody, "fr", "en")
	if fid == nil {
		t.Error("fr→en of a right-to-left document: no rtl_fidelity")
	}
	if strings.Contains(en, "<w:bidi/>") || strings.Contains(en, "<w:rtl/>") {
		t.Errorf("English output keeps RTL flags:\n%s", en)
	}
	if n := strings.Count(en, `<w:bidiVisual w:val="0"/>`); n != 2 {
		t.Errorf("English output: %d tables with bidiVisual=0, want 2:\n%s", n, en)
	}
	_, ar, _ := applyPair(t, mixedBody, "fr", "ar")
	if strings.Contains(ar, `<w:bidi w:val="0"/>`) || strings.Count(ar, "<w:bidiVisual/>") != 2 {
		t.Errorf("Arabic output not fully RTL:\n%s", ar)
	}
	if !strings.Contains(ar, `<w:bidi/></w:sectPr>`) {
		t.Errorf("Arabic output: section not RTL:\n%s", ar)
	}
}

// TestRTLIslandsInLTR: an English document quoting Arabic, translated to
// another LTR language, comes out LTR (LTR→LTR is converted too), and an
// LTR document with nothing right to left goes through byte for byte.
func TestRTLIslandsInLTR(t *testing.T) {
	body := `<w:p><w:r><w:t>The motto reads:</w:t></w:r></w:p>` +
		`<w:p><w:pPr><w:bidi/></w:pPr><w:r><w:rPr><w:rtl/></w:rPr><w:t>العلم نور</w:t></w:r></w:p>` +
		`<w:tbl><w:tblPr><w:bidiVisual/></w:tblPr><w:tblGrid><w:gridCol w:w="3000"/></w:tblGrid><w:tr><w:tc><w:p><w:pPr><w:bidi/></w:pPr><w:r><w:t>نور</w:t></w:r></w:p></w:tc></w:tr></w:tbl>`
	_, got, fid := applyPair(t, body, "en", "fr")
	if fid == nil {
		t.Error("LTR→LTR with RTL islands: no rtl_fidelity")
	}
	if strings.Contains(got, "<w:bidi/>") || strings.Contains(got, "<w:rtl/>") || !strings.Contains(got, `<w:bidiVisual w:val="0"/>`) {
		t.Errorf("RTL islands not turned LTR:\n%s", got)
	}
	plain := styledDocx(t, `<w:p><w:r><w:t>Nothing right to left here.</w:t></w:r></w:p>`)
	var buf bytes.Buffer
	f, err := New(Options{}).Apply(context.Background(), newBlob(plain), ports.LayoutRequest{SourceLang: "en", TargetLang: "fr"}, &buf)
	if err != nil || f != nil || !bytes.Equal(buf.Bytes(), plain) {
		t.Errorf("plain LTR→LTR: fidelity %v, err %v, unchanged %v", f, err, bytes.Equal(buf.Bytes(), plain))
	}
}

// TestEstimateFromDocument: with source auto (no source language yet) the
// estimate comes from the document's own direction and script (issue 10
// §3), for an Arabic target and for an English one.
func TestEstimateFromDocument(t *testing.T) {
	l := New(Options{})
	for _, c := range []struct {
		body, to string
		want     bool
	}{
		{`<w:p><w:r><w:t>An English letter.</w:t></w:r></w:p>`, "ar", true},
		{`<w:p><w:r><w:t>نص عربي طويل</w:t></w:r></w:p>`, "en", true},
		{mixedBody, "en", true},
		{`<w:p><w:r><w:t>An English letter.</w:t></w:r></w:p>`, "fr", false},
	} {
		f, err := l.Estimate(context.Background(), newBlob(styledDocx(t, c.body)), ports.LayoutRequest{TargetLang: c.to})
		if err != nil {
			t.Fatal(err)
		}
		if (f != nil) != c.want {
			t.Errorf("estimate to %s of %.40s: %+v, want present=%v", c.to, c.body, f, c.want)
		}
	}
}

// TestTextBoxHostRunHasNoRTL: the run that anchors a text box contains the
// box's runs; w:rtl on it would reach the box's Latin text (found on a
// footer of the corpus: "AW" in a title text box).
func TestTextBoxHostRunHasNoRTL(t *testing.T) {
	body := `<w:p><w:r><w:t>Report footer</w:t></w:r><w:r><w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml" style="width:200pt;height:20pt"><v:textbox><w:txbxContent><w:p><w:r><w:t>AW annual report</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape></w:pict></w:r></w:p>`
	_, got, _ := applyPair(t, body, "en", "ar")
	host := got[strings.Index(got, "<w:pict>")-60 : strings.Index(got, "<w:pict>")]
	if strings.Contains(host, "<w:rtl/>") {
		t.Errorf("text box host run carries w:rtl: …%s", host)
	}
}
