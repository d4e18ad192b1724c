package rtl

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/dragoman-translate/dragoman/adapters/rtl/rtltest"
)

// TestRender lays out a few corpus documents per direction and checks
// the LibreOffice rendering (rtltest.CheckRender): RTL lines start at the right
// edge, the first logical cell is rightmost, columns flow from the right,
// and the complex-script font is really used. Set DRAGOMAN_RTL_PNG to a
// directory to keep before/after page images (pdftoppm -png -r 50).
func TestRender(t *testing.T) {
	for _, tool := range []string{"soffice", "pdftotext", "pdffonts"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is required (apt-get install libreoffice-writer poppler-utils): %v", tool, err)
		}
	}
	groups := []struct {
		name, from, to string
		docs           []string
	}{
		{"ltr-ar", "en", "ar", []string{"ltr/aspose-Nested_tables.docx", "ltr/tika-testWORD_various.docx", "ltr/aspose-Footnotes_and_endnotes.docx", "ltr/oxpt-HC029-Table-Merged-Cells.docx"}},
		{"ltr-he", "en", "he", []string{"ltr/aspose-Nested_tables.docx", "ltr/tika-testWORD_various.docx", "ltr/docx4j-sections_multiple.docx"}},
		{"rtl-en", "ar", "en", []string{"rtl/oxpt-HC014-RTL-Table-01.docx", "rtl/docx4j-arabic_align.docx", "rtl/oxpt-HC002-Hebrew-01.docx", "rtl/oxsdk-Comment028.docx"}},
	}
	// Documents whose rendering must show the table and column markers.
	want := map[string]bool{}
	for _, d := range []string{"ltr/tika-testWORD_various.docx", "ltr/oxpt-HC029-Table-Merged-Cells.docx", "rtl/oxpt-HC014-RTL-Table-01.docx"} {
		want[d+markFirstCell] = true
	}
	for _, d := range []string{"ltr/tika-testWORD_various.docx", "ltr/aspose-Footnotes_and_endnotes.docx"} {
		want[d+markCols] = true
	}
	l := New(Options{})
	for _, g := range groups {
		t.Run(g.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			dir := t.TempDir()
			var outs []string
			var ins, outBytes [][]byte
			for _, d := range g.docs {
				in, out := layoutDoc(t, l, read(t, testDoc(d)), g.from, g.to)
				p := filepath.Join(dir, filepath.Base(d))
				if err := os.WriteFile(p, out, 0o644); err != nil {
					t.Fatal(err)
				}
				outs = append(outs, p)
				ins, outBytes = append(ins, in), append(outBytes, out)
			}
			pdfs, err := rtltest.ToPDF(ctx, dir, outs...)
			if err != nil {
				t.Fatal(err)
			}
			for i, pdf := range pdfs {
				pages, err := rtltest.Layout(ctx, pdf)
				if err != nil {
					t.Fatal(err)
				}
				fonts, err := rtltest.Fonts(ctx, pdf)
				if err != nil {
					t.Fatal(err)
				}
				_, st, err := rtltest.CheckXML(ins[i], outBytes[i], rtltest.Target{RTL: g.to != "en", Lang: g.to})
				if err != nil {
					t.Fatal(err)
				}
				left, right, err := rtltest.PageEdges(outBytes[i])
				if err != nil {
					t.Fatal(err)
				}
				rt := rtltest.RenderTarget{RTL: g.to != "en", Left: left, Right: right, EndAligned: st.EndAligned,
					FirstCell: markFirstCell, LastCell: markLastCell, Columns: markCols}
				if !rt.RTL {
					rt.EndAligned = st.EndAlignedLTR
				} else {
					rt.CSFont = csFontOf(t, outBytes[i])
				}
				for _, m := range []string{markFirstCell, markCols} {
					if want[g.docs[i]+m] && len(rtltest.Find(pages, m)) == 0 {
						t.Errorf("%s: marker %s not rendered: the check would be vacuous", g.docs[i], m)
					}
				}
				for _, f := range rtltest.CheckRender(pages, fonts, rt) {
					t.Errorf("%s: %s", g.docs[i], f)
				}
			}
			if keep := os.Getenv("DRAGOMAN_RTL_PNG"); keep != "" {
				savePNGs(t, keep, g.name, dir, ins, g.docs, pdfs)
			}
		})
	}
}

// csFontOf is the docDefaults @cs font the layout wrote.
func csFontOf(t *testing.T, docx []byte) string {
	pk, err := openPkg(newBlob(docx))
	if err != nil {
		t.Fatal(err)
	}
	st, err := pk.part("word/styles.xml")
	if err != nil || st == nil {
		t.Fatalf("no styles: %v", err)
	}
	return newStyleSheet(st).defaults.Child("rPrDefault").Child("rPr").Child("rFonts").AttrOr("cs", "")
}

func savePNGs(t *testing.T, keep, group, dir string, ins [][]byte, docs, after []string) {
	bdir := filepath.Join(dir, "before")
	os.MkdirAll(bdir, 0o755)
	var bs []string
	for i, d := range docs {
		p := filepath.Join(bdir, filepath.Base(d))
		os.WriteFile(p, ins[i], 0o644)
		bs = append(bs, p)
	}
	before, err := rtltest.ToPDF(context.Background(), bdir, bs...)
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(keep, 0o755)
	for i := range docs {
		base := filepath.Join(keep, group+"-"+filepath.Base(docs[i]))
		exec.Command("pdftoppm", "-png", "-r", "50", "-l", "2", before[i], base+"-before").Run()
		exec.Command("pdftoppm", "-png", "-r", "50", "-l", "2", after[i], base+"-after").Run()
	}
}
