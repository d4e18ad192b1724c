package structure

import (
	"archive/zip"
	"bytes"
	"io"
	"testing"
)

// minimal is a package with one word/document.xml holding body.
func minimal(t *testing.T, body string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.Create("word/document.xml")
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(w, `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`+
		`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`+body+`</w:body></w:document>`)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func compareBodies(t *testing.T, src, out string) *Report {
	t.Helper()
	a, b := minimal(t, src), minimal(t, out)
	r, err := CompareReaders(bytes.NewReader(a), int64(len(a)), bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The RTL layout, translating from right to left, copies the cs twins into
// missing Latin ones and drops w:rtl: the English text looks like the
// Arabic did, and nothing is lost (poi-stress011 and poi-stress004 through
// the API reported the plain text, and the bold, as lost).
func TestTwinsMovedByTheLayoutAreNoLoss(t *testing.T) {
	for name, c := range map[string][2]string{
		"size only on the cs twin (poi-stress011)": {
			`<w:p><w:r><w:rPr><w:rFonts w:hint="cs"/><w:szCs w:val="40"/><w:rtl/></w:rPr><w:t>الأمم المتحدة</w:t></w:r></w:p>`,
			`<w:p><w:r><w:rPr><w:rFonts w:hint="cs"/><w:sz w:val="40"/><w:szCs w:val="40"/></w:rPr><w:t>United Nations</w:t></w:r></w:p>`,
		},
		"bold with the size on the cs twin (poi-stress004)": {
			`<w:p><w:r><w:rPr><w:b/><w:bCs/><w:szCs w:val="26"/><w:rtl/></w:rPr><w:t>سایت‌های مجموعۀ</w:t></w:r>` +
				`<w:r><w:rPr><w:rtl/></w:rPr><w:t xml:space="preserve"> متن</w:t></w:r></w:p>`,
			`<w:p><w:r><w:rPr><w:b/><w:bCs/><w:sz w:val="26"/><w:szCs w:val="26"/></w:rPr><w:t>the sites</w:t></w:r>` +
				`<w:r><w:t xml:space="preserve"> text</w:t></w:r></w:p>`,
		},
		"only direction, fonts and language": {
			`<w:p><w:r><w:rPr><w:rFonts w:cs="Arial"/><w:rtl/><w:cs/><w:lang w:bidi="ar-SA"/></w:rPr><w:t>نص</w:t></w:r></w:p>`,
			`<w:p><w:r><w:t>text</w:t></w:r></w:p>`,
		},
		"a cs twin on Latin text, dropped for an RTL target": {
			`<w:p><w:r><w:rPr><w:szCs w:val="24"/></w:rPr><w:t>plain words</w:t></w:r></w:p>`,
			`<w:p><w:r><w:rPr><w:rtl/></w:rPr><w:t>كلمات</w:t></w:r></w:p>`,
		},
	} {
		if r := compareBodies(t, c[0], c[1]); r.Lost() {
			t.Errorf("%s: %s", name, r.Summary())
		}
	}
}

// Formatting the reader saw is still lost when the output drops it, whichever
// twin carried it.
func TestTwinFormattingLost(t *testing.T) {
	for name, c := range map[string][2]string{
		"cs bold of Arabic text": {
			`<w:p><w:r><w:rPr><w:bCs/><w:rtl/></w:rPr><w:t>عنوان</w:t></w:r><w:r><w:rPr><w:rtl/></w:rPr><w:t xml:space="preserve"> نص</w:t></w:r></w:p>`,
			`<w:p><w:r><w:t>title text</w:t></w:r></w:p>`,
		},
		"Latin bold of English text": {
			`<w:p><w:r><w:rPr><w:b/></w:rPr><w:t>title</w:t></w:r><w:r><w:t xml:space="preserve"> text</w:t></w:r></w:p>`,
			`<w:p><w:r><w:rPr><w:rtl/></w:rPr><w:t>عنوان نص</w:t></w:r></w:p>`,
		},
	} {
		if r := compareBodies(t, c[0], c[1]); !r.Lost() {
			t.Errorf("%s: no loss reported: %s", name, r.Summary())
		}
	}
}

// The old formatting recorded in w:rPrChange is not the run's formatting.
func TestTrackedFormattingChangeIsNotFormatting(t *testing.T) {
	r := compareBodies(t,
		`<w:p><w:r><w:rPr><w:rPrChange w:id="1" w:author="a"><w:rPr><w:i/></w:rPr></w:rPrChange></w:rPr><w:t>some words</w:t></w:r></w:p>`,
		`<w:p><w:r><w:t>otras palabras</w:t></w:r></w:p>`)
	if r.Lost() {
		t.Fatal(r.Summary())
	}
}

// LibreOffice writes bold twice in runs it exports from RTF; the RTL layout
// writes it once. The same formatting, not a loss.
func TestRepeatedPropertyIsOneProperty(t *testing.T) {
	r := compareBodies(t,
		`<w:p><w:r><w:rPr><w:b/><w:b/></w:rPr><w:t>bold words</w:t></w:r></w:p>`,
		`<w:p><w:r><w:rPr><w:b/></w:rPr><w:t>fett Wörter</w:t></w:r></w:p>`)
	if r.Lost() {
		t.Errorf("a repeated <w:b/> written once counted as lost: %v", r.Losses)
	}
	r = compareBodies(t,
		`<w:p><w:r><w:rPr><w:b/><w:b/></w:rPr><w:t>bold words</w:t></w:r></w:p>`,
		`<w:p><w:r><w:t>fett Wörter</w:t></w:r></w:p>`)
	if !r.Lost() {
		t.Error("bold dropped was not counted as lost")
	}
}
