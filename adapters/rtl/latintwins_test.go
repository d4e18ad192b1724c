package rtl

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/core/ports"
)

// A Hebrew heading as LibreOffice writes it from an RTF (shareaza-hebrew):
// bold twice, size only in szCs, and a Latin run ("GNU") with no w:rtl
// shown at its style's Latin size. Translated to English, the Hebrew run
// takes its cs size (the English keeps the Hebrew's look) while the Latin
// run keeps the style's size, and bold is written once.
func TestLatinRunKeepsItsLatinLookFromRTL(t *testing.T) {
	body := `<w:p><w:pPr><w:bidi/></w:pPr>` +
		`<w:r><w:rPr><w:b/><w:b/><w:szCs w:val="28"/><w:rtl/></w:rPr><w:t xml:space="preserve">Public License of </w:t></w:r>` +
		`<w:r><w:rPr><w:b/><w:szCs w:val="28"/></w:rPr><w:t>GNU</w:t></w:r></w:p>`
	src := styledDocxWith(t, body, `<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:rPr><w:sz w:val="20"/></w:rPr></w:style>`)
	var out bytes.Buffer
	if _, err := New(Options{}).Apply(context.Background(), newBlob(src), ports.LayoutRequest{SourceLang: "he", TargetLang: "en"}, &out); err != nil {
		t.Fatal(err)
	}
	doc := documentXML(t, out.Bytes())
	runs := regexp.MustCompile(`<w:r>.*?</w:r>`).FindAllString(doc, -1)
	var license, gnu string
	for _, r := range runs {
		switch {
		case strings.Contains(r, "License"):
			license = r
		case strings.Contains(r, "GNU"):
			gnu = r
		}
	}
	if !strings.Contains(license, `<w:sz w:val="28"/>`) {
		t.Errorf("the translated Hebrew run lost its size: %s", license)
	}
	if strings.Contains(gnu, `w:sz `) || strings.Contains(gnu, `<w:szCs`) {
		t.Errorf("the Latin run took the complex-script size instead of its style's: %s", gnu)
	}
	if n := strings.Count(doc, "<w:b/><w:b/>"); n != 0 {
		t.Errorf("bold written twice in %d runs: %s", n, doc)
	}
	if !strings.Contains(gnu, "<w:b/>") {
		t.Errorf("the Latin run lost its bold: %s", gnu)
	}
}
