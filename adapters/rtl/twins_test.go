package rtl

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/adapters/rtl/rtltest"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// twinStyles has size and bold only in their Latin form: in docDefaults, in
// a paragraph style and in a character style (issue 10 §5).
const twinStyles = `<w:docDefaults><w:rPrDefault><w:rPr><w:sz w:val="22"/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr><w:bidi/></w:pPr></w:pPrDefault></w:docDefaults>` +
	`<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>` +
	`<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:rPr><w:b/><w:sz w:val="32"/></w:rPr></w:style>` +
	`<w:style w:type="character" w:styleId="Big"><w:name w:val="Big"/><w:rPr><w:sz w:val="28"/></w:rPr></w:style>`

// twinBody: an Arabic document with runs whose size comes from a character
// style, a run with sz and no szCs, a run whose sizes differ, and a bold
// heading through its style.
const twinBody = `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>عنوان التقرير</w:t></w:r></w:p>` +
	`<w:p><w:r><w:rPr><w:rStyle w:val="Big"/><w:rtl/></w:rPr><w:t>نص كبير</w:t></w:r><w:r><w:rPr><w:sz w:val="24"/><w:rtl/></w:rPr><w:t> نص عادي</w:t></w:r><w:r><w:rPr><w:b/><w:bCs w:val="0"/><w:sz w:val="20"/><w:szCs w:val="26"/><w:rtl/></w:rPr><w:t> ملاحظة</w:t></w:r></w:p>`

var szCsOf = regexp.MustCompile(`<w:style [^>]*w:styleId="Big">.*?</w:style>`)

// TestComplexScriptTwinsEverywhere: in every direction, runs with RTL text
// end with equal Latin and complex-script twins, directly and through
// character and paragraph styles.
func TestComplexScriptTwinsEverywhere(t *testing.T) {
	sameDirection = true
	defer func() { sameDirection = false }()
	for _, c := range []struct{ from, to string }{{"ar", "ar"}, {"ar", "he"}, {"ar", "en"}, {"en", "ar"}} {
		src := styledDocxWith(t, twinBody, twinStyles)
		// RTL→LTR keeps one Arabic run untranslated (a quoted name).
		in := src
		if c.to != "en" {
			in = pseudoTranslate(t, src, c.to)
		}
		var out bytes.Buffer
		if _, err := New(Options{}).Apply(context.Background(), newBlob(in), ports.LayoutRequest{SourceLang: c.from, TargetLang: c.to}, &out); err != nil {
			t.Fatal(err)
		}
		rtl := c.to != "en"
		fs, _, err := rtltest.CheckXML(in, out.Bytes(), rtltest.Target{RTL: rtl, Lang: map[bool]string{true: c.to, false: "ar"}[rtl], ForceTwins: rtl && c.from == "en", Covers: rtltest.NewFontconfig().Covers})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range fs {
			t.Errorf("%s→%s: %s", c.from, c.to, f)
		}
		doc := documentXML(t, out.Bytes())
		for _, run := range regexp.MustCompile(`<w:r>.*?</w:r>`).FindAllString(doc, -1) {
			if !hasRTL(run) {
				continue
			}
			sz := regexp.MustCompile(`<w:sz w:val="(\d+)"/>`).FindStringSubmatch(run)
			cs := regexp.MustCompile(`<w:szCs w:val="(\d+)"/>`).FindStringSubmatch(run)
			if sz != nil && (cs == nil || cs[1] != sz[1]) {
				t.Errorf("%s→%s: RTL run with sz and a missing or different szCs: %s", c.from, c.to, run)
			}
			if strings.Contains(run, "<w:b/>") && !strings.Contains(run, "<w:bCs/>") {
				t.Errorf("%s→%s: bold RTL run without bCs: %s", c.from, c.to, run)
			}
		}
		styles := string(readPart(t, out.Bytes(), "word/styles.xml"))
		if big := szCsOf.FindString(styles); !strings.Contains(big, `<w:szCs w:val="28"/>`) {
			t.Errorf("%s→%s: character style without its szCs: %s", c.from, c.to, big)
		}
		if !strings.Contains(styles, `<w:b/><w:bCs/>`) {
			t.Errorf("%s→%s: heading style bold without bCs: %s", c.from, c.to, styles)
		}
	}
}

func readPart(t *testing.T, docx []byte, name string) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(docx), int64(len(docx)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range zr.File {
		if f.Name == name {
			rc, _ := f.Open()
			defer rc.Close()
			b, _ := io.ReadAll(rc)
			return b
		}
	}
	t.Fatalf("no %s", name)
	return nil
}
