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

func TestMarkPositions(t *testing.T) {
	cases := []struct {
		in     string
		arabic bool
		want   string
	}{
		{"اتصل على 555-1234 الآن", true, "اتصل على \u200e555-1234 الآن"},
		{"التاريخ 2024-05-12", true, "التاريخ \u200e2024-05-12"},
		{"التاريخ \u200e2024-05-12", true, "التاريخ \u200e2024-05-12"}, // idempotent
		{"מספר 555-1234", false, "מספר 555-1234"},                      // Hebrew: W2 does not apply
		{"ثبّت Office 365 (64-bit) الآن", true, "ثبّت Office 365 (64-bit)\u200e الآن"},
		{"Call 555-1234", true, "Call 555-1234"}, // no Arabic before the number
		{"اتصل +1 (555) 123-4567", true, "اتصل \u200e+1 (555) 123-4567"},
		// A thousands separator belongs to its number: the mark goes
		// before it, not between "1," and "234.5".
		{"المجموع 1,234.5 ريال", true, "المجموع \u200e1,234.5 ريال"},
		// A number, a space and a parenthesis that does not close after
		// digits are two things: "±9 (75%)" is not one number to keep
		// left to right (the mark cut the 9 from its sign).
		{"الصفحة ±9 (75%)", true, "الصفحة ±9 (75%)"},
		// An address ending in a slash keeps it: without the mark the
		// slash was drawn on the far side ("/http://poi.apache.org").
		{"طضذذ http://poi.apache.org/ طضذذ", true, "طضذذ http://poi.apache.org/\u200e طضذذ"},
		{"אתר http://poi.apache.org/ שלנו", false, "אתר http://poi.apache.org/\u200e שלנו"},
		{"פרוטוקול TCP/עברית", false, "פרוטוקול TCP/עברית"}, // a slash between words stays neutral
	}
	for _, c := range cases {
		rs := []rune(c.in)
		at := map[int]bool{}
		for _, i := range markPositions(rs, c.arabic) {
			at[i] = true
		}
		var b strings.Builder
		for i, r := range rs {
			if at[i] {
				b.WriteRune(lrm)
			}
			b.WriteRune(r)
		}
		if b.String() != c.want {
			t.Errorf("%q: got %q, want %q", c.in, b.String(), c.want)
		}
	}
}

func TestForeignSpans(t *testing.T) {
	text := []rune("مرحبا Office 365 العالم")
	fl := foreignSpans(text, true)
	var latin strings.Builder
	for i, f := range fl {
		if f {
			latin.WriteRune(text[i])
		}
	}
	if latin.String() != "Office" {
		t.Errorf("Latin span %q, want %q", latin.String(), "Office")
	}
}

// miniDocx builds a one-paragraph package around body XML.
func miniDocx(t *testing.T, body string) []byte {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	files := map[string]string{
		"[Content_Types].xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
		"_rels/.rels":         `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
		"word/document.xml":   `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml" mc:Ignorable="w14"><w:body>` + body + `<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1000" w:bottom="1440" w:left="2000" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr></w:body></w:document>`,
	}
	for _, n := range []string{"[Content_Types].xml", "_rels/.rels", "word/document.xml"} {
		w, _ := zw.Create(n)
		io.WriteString(w, files[n])
	}
	zw.Close()
	return b.Bytes()
}

func documentXML(t *testing.T, docx []byte) string {
	zr, err := zip.NewReader(bytes.NewReader(docx), int64(len(docx)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range zr.File {
		if f.Name == "word/document.xml" {
			rc, _ := f.Open()
			b, _ := io.ReadAll(rc)
			return string(b)
		}
	}
	t.Fatal("no document.xml")
	return ""
}

func applyMini(t *testing.T, opts Options, body, from, to string) string {
	var out bytes.Buffer
	if _, err := New(opts).Apply(context.Background(), newBlob(miniDocx(t, body)), ports.LayoutRequest{SourceLang: from, TargetLang: to}, &out); err != nil {
		t.Fatal(err)
	}
	return documentXML(t, out.Bytes())
}

func TestApplyParagraphAndRuns(t *testing.T) {
	got := applyMini(t, Options{}, `<w:p w14:paraId="1"><w:pPr><w:spacing w:after="0"/><w:jc w:val="left"/></w:pPr><w:r><w:rPr><w:b/><w:sz w:val="28"/></w:rPr><w:t>مرحبا Office العالم 555-1234</w:t></w:r></w:p><w:p><w:r><w:t>Click OK.</w:t></w:r></w:p>`, "en", "ar")
	for _, want := range []string{
		`mc:Ignorable="w14"`, `w14:paraId="1"`, // declarations kept
		`<w:pPr><w:bidi/><w:spacing w:after="0"/><w:jc w:val="left"/></w:pPr>`, // schema position, jc untouched
		// no style sheet: the RTL run names its complex-script font itself
		`<w:rPr><w:rFonts w:cs="Amiri"/><w:b/><w:bCs/><w:sz w:val="28"/><w:szCs w:val="28"/><w:rtl/></w:rPr><w:t xml:space="preserve">مرحبا </w:t>`,
		`<w:rPr><w:b/><w:bCs/><w:sz w:val="28"/><w:szCs w:val="28"/></w:rPr><w:t>Office</w:t>`, // no w:rtl on Latin
		"\u200e555-1234",
		`<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="2000" w:bottom="1440" w:left="1000"`, // page margins mirrored
		`<w:bidi/></w:sectPr>`,
		`<w:p><w:r><w:t>Click OK.</w:t></w:r></w:p>`, // Latin-only stays LTR (no styles: inherited LTR)
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %s\nin %s", want, got)
		}
	}
	native := applyMini(t, Options{NativeDigits: true}, `<w:p><w:r><w:t>العدد 42</w:t></w:r></w:p>`, "en", "ar")
	if !strings.Contains(native, "العدد ٤٢") {
		t.Errorf("native digits not written: %s", native)
	}
	back := applyMini(t, Options{}, `<w:p><w:pPr><w:bidi/></w:pPr><w:r><w:rPr><w:rtl/><w:bCs/><w:szCs w:val="30"/></w:rPr><w:t>Number ٤٢</w:t></w:r></w:p>`, "ar", "en")
	for _, want := range []string{`<w:p><w:pPr/><w:r><w:rPr><w:b/><w:bCs/><w:sz w:val="30"/><w:szCs w:val="30"/></w:rPr><w:t>Number 42</w:t></w:r></w:p>`} {
		if !strings.Contains(back, want) {
			t.Errorf("RTL→LTR: missing %s\nin %s", want, back)
		}
	}
}

func TestApplyMirrorsAnchors(t *testing.T) {
	anchor := func(pos string) string {
		return `<w:p><w:r><w:drawing><wp:anchor xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:positionH relativeFrom="margin">` + pos + `</wp:positionH><wp:extent cx="635000" cy="100"/><wp:wrapSquare wrapText="left"/></wp:anchor></w:drawing></w:r><w:r><w:t>نص</w:t></w:r></w:p>`
	}
	got := applyMini(t, Options{}, anchor(`<wp:posOffset>100000</wp:posOffset>`), "en", "he")
	// text width 12240-2000-1000 = 9240 twips = 5867400 EMU; minus 100000 and 635000
	for _, want := range []string{`<wp:posOffset>5132400</wp:posOffset>`, `wrapText="right"`} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %s\nin %s", want, got)
		}
	}
	// Flush with the left margin: the mirror is flush right, written as an
	// alignment, which Word and LibreOffice both read physically
	// (LibreOffice measures posOffset from the right in RTL paragraphs).
	got = applyMini(t, Options{}, anchor(`<wp:posOffset>0</wp:posOffset>`), "en", "he")
	if want := `<wp:positionH relativeFrom="margin"><wp:align>right</wp:align></wp:positionH>`; !strings.Contains(got, want) {
		t.Errorf("missing %s\nin %s", want, got)
	}
	// A wp14 percentage position inside mc:AlternateContent is mirrored too.
	pct := `<mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice Requires="wp14"><wp:positionH relativeFrom="margin"><wp14:pctPosHOffset xmlns:wp14="http://schemas.microsoft.com/office/word/2010/wordprocessingDrawing">10000</wp14:pctPosHOffset></wp:positionH></mc:Choice><mc:Fallback><wp:positionH relativeFrom="margin"><wp:posOffset>586740</wp:posOffset></wp:positionH></mc:Fallback></mc:AlternateContent>`
	body := strings.Replace(anchor(""), `<wp:positionH relativeFrom="margin"></wp:positionH>`, pct, 1)
	got = applyMini(t, Options{}, body, "en", "he")
	// 100% − 10% − 635000/5867400 (10.82%) = 79.18%; the fallback mirrored alike
	for _, want := range []string{`>79178</wp14:pctPosHOffset>`, `<wp:posOffset>4645660</wp:posOffset>`} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %s\nin %s", want, got)
		}
	}
}

func TestApplyRejectsBrokenInput(t *testing.T) {
	var out bytes.Buffer
	_, err := New(Options{}).Apply(context.Background(), newBlob([]byte("not a zip")), ports.LayoutRequest{SourceLang: "en", TargetLang: "ar"}, &out)
	if err == nil {
		t.Fatal("no error for a non-zip input")
	}
	_, err = New(Options{}).Apply(context.Background(), newBlob(miniDocx(t, `<w:p><w:r><w:t>x</w:r></w:p>`)), ports.LayoutRequest{SourceLang: "en", TargetLang: "ar"}, &out)
	if err == nil {
		t.Fatal("no error for malformed XML")
	}
	_, err = New(Options{}).Apply(context.Background(), newBlob(miniDocx(t, ``)), ports.LayoutRequest{SourceLang: "en", TargetLang: "xx"}, &out)
	if err == nil {
		t.Fatal("no error for an unknown language")
	}
}

// An English paragraph left untranslated in Urdu, whose commas and
// question mark the engine wrote as "،" and "؟" (apertium-hin-urd on the
// corpus's mlsumm document), gets Latin marks back and stays left to
// right; the same marks in Urdu text stay.
func TestLatinParagraphKeepsLatinPunctuation(t *testing.T) {
	got := applyMini(t, Options{Coverage: KnownFonts{}}, `<w:p><w:r><w:t>Early days، the company؟ Yes۔</w:t></w:r></w:p><w:p><w:r><w:t>کیا آپ، ہم؟</w:t></w:r></w:p>`, "hi", "ur")
	for _, want := range []string{`<w:p><w:r><w:t>Early days, the company? Yes.</w:t></w:r></w:p>`, `<w:pPr><w:bidi/></w:pPr>`, `کیا آپ، ہم؟`} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %s\nin %s", want, got)
		}
	}
}
