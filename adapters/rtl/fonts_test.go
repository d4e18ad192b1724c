package rtl

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/adapters/rtl/rtltest"
)

// requireFontconfig fails, with the install hint, without fc-list.
func requireFontconfig(t *testing.T) *Fontconfig {
	t.Helper()
	fc := &Fontconfig{}
	if !fc.Available() {
		t.Fatal("fc-list is required (make deps: fontconfig and the fonts of APT_PACKAGES)")
	}
	return fc
}

// The complex-script font the layout writes for each right-to-left
// target (issue 22 §5), with its fallback where it has one, covers the
// target's letters, its digits and punctuation, in regular and bold faces
// of the installed fonts (fontconfig's charset of every face). Noto Sans
// Hebrew, the font written before, has neither digits nor ASCII
// punctuation ("±" came out drawn over a "4", bold numbers regular).
func TestCSFontsCover(t *testing.T) {
	fc := requireFontconfig(t)
	for _, lang := range []string{"ar", "fa", "ur", "he", "hi"} {
		font, fallback := defaultCSFont[lang], csFallback[lang]
		if !fc.hasLetters(font, lang) {
			t.Errorf("%s: %s is not installed with the %s letters", lang, font, scriptName(lang))
		}
		for _, f := range []string{font, fallback} {
			if f == "" {
				continue
			}
			// A bold face by its style: Debian's Noto Nastaliq Urdu
			// Bold says weight 80 (regular), so LibreOffice emboldens
			// the regular face instead of using it.
			out, err := exec.Command("fc-list", f, "style").Output()
			if err != nil || !strings.Contains(string(out), "Bold") {
				t.Errorf("%s: %s has no bold face installed (%v): %s", lang, f, err, out)
			}
		}
		lacks := fc.Lacks(font, neededRunes(lang))
		if fallback != "" {
			lacks = fc.Lacks(fallback, lacks)
		}
		if len(lacks) > 0 {
			t.Errorf("%s: %s (fallback %q) lacks %q", lang, font, fallback, string(lacks))
		}
		if !fc.Covers(font, lang) {
			t.Errorf("%s: %s does not cover %s", lang, font, lang)
		}
	}
	if fc.Covers("Noto Sans Hebrew", "he") || fc.Covers("Noto Naskh Arabic", "ar") {
		t.Error("a font without digits or ASCII punctuation counts as covering its script")
	}
	// The free fonts' gaps as KnownFonts states them, for machines
	// without fontconfig, are the installed fonts' own.
	for family, gaps := range knownGaps {
		if got := string(fc.Lacks(family, neededRunes("ur"))); got != gaps {
			t.Errorf("knownGaps[%q] = %q, fontconfig says %q", family, gaps, got)
		}
	}
}

// Urdu's characters that Noto Nastaliq Urdu lacks go into runs of its
// fallback, named in every font slot, with the run's own properties and
// w:rtl; the font table declares both fonts.
func TestFallbackRuns(t *testing.T) {
	got := applyMini(t, Options{Coverage: KnownFonts{}},
		`<w:p><w:r><w:rPr><w:b/></w:rPr><w:t>یہ "متن" 50% ہے؟ کیا? Python</w:t></w:r></w:p>`, "en", "ur")
	for _, want := range []string{
		`<w:r><w:rPr><w:rFonts w:ascii="Amiri" w:hAnsi="Amiri" w:cs="Amiri"/><w:b/><w:bCs/><w:rtl/></w:rPr><w:t>"</w:t></w:r>`,
		`<w:r><w:rPr><w:rFonts w:ascii="Amiri" w:hAnsi="Amiri" w:cs="Amiri"/><w:b/><w:bCs/><w:rtl/></w:rPr><w:t>%</w:t></w:r>`,
		`<w:r><w:rPr><w:rFonts w:ascii="Amiri" w:hAnsi="Amiri" w:cs="Amiri"/><w:b/><w:bCs/><w:rtl/></w:rPr><w:t>?</w:t></w:r>`,
		`<w:t xml:space="preserve"> ہے؟ کیا</w:t>`, // ؟ is Nastaliq's own
		`<w:t>Python</w:t>`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %s\nin %s", want, got)
		}
	}
	// Arabic's font covers everything: no fallback runs.
	if ar := applyMini(t, Options{Coverage: KnownFonts{}}, `<w:p><w:r><w:t>نص "50%"?</w:t></w:r></w:p>`, "en", "ar"); strings.Contains(ar, `w:ascii="Amiri"`) {
		t.Errorf("fallback runs in Arabic: %s", ar)
	}
}

// TestRenderDigitsAndPunctuation renders bold numbers, "±", percentages,
// parentheses and quotes in Hebrew, Arabic and Urdu with LibreOffice: every
// glyph comes from the fonts the layout wrote (the document's Latin font,
// the complex-script font and its fallback), bold digits from a bold face
// of the complex-script font, and no other font stands in.
func TestRenderDigitsAndPunctuation(t *testing.T) {
	requireFontconfig(t)
	for _, tool := range []string{"soffice", "pdffonts"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is required (make deps): %v", tool, err)
		}
	}
	text := `<w:p><w:r><w:t xml:space="preserve">text 4 ±4 mm (50%) "quoted"; why? 3/4 – 1,234.5 … </w:t></w:r>` +
		`<w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">bold 2024 ±9 (75%)</w:t></w:r></w:p>`
	styles := `<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Liberation Serif" w:hAnsi="Liberation Serif"/><w:sz w:val="24"/></w:rPr></w:rPrDefault></w:docDefaults>` +
		`<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>`
	cases := []struct {
		to   string
		want []string // font name prefixes in the PDF (subset tags removed)
	}{
		{"he", []string{"LiberationSans-Bold", "LiberationSans"}},
		{"ar", []string{"Amiri-Bold", "Amiri"}},
		{"ur", []string{"NotoNastaliqUrdu", "Amiri-Bold", "Amiri"}},
	}
	dir := t.TempDir()
	if keep := os.Getenv("DRAGOMAN_RTL_KEEP"); keep != "" {
		dir = keep
	}
	l := New(Options{})
	var paths []string
	for _, c := range cases {
		_, out := layoutDoc(t, l, styledDocxWith(t, text, styles), "en", c.to)
		p := filepath.Join(dir, "digits-"+c.to+".docx")
		if err := os.WriteFile(p, out, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	ctx := context.Background()
	pdfs, err := rtltest.ToPDF(ctx, dir, paths...)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		fonts, err := rtltest.Fonts(ctx, pdfs[i])
		if err != nil {
			t.Fatal(err)
		}
		allowed := append([]string{"LiberationSerif"}, c.want...)
		for _, f := range fonts {
			ok := false
			for _, a := range allowed {
				ok = ok || strings.HasPrefix(f, a)
			}
			if !ok {
				t.Errorf("%s: %s stands in for a glyph the layout's fonts lack (fonts: %v)", c.to, f, fonts)
			}
		}
		for _, w := range c.want {
			found := false
			for _, f := range fonts {
				found = found || f == w || strings.HasPrefix(f, w+"-Regular")
			}
			if !found {
				t.Errorf("%s: %s not used (fonts: %v)", c.to, w, fonts)
			}
		}
	}
}

// A family named with a pattern's separators in it (LibreOffice writes
// font features after a colon) is looked up as a name: not installed.
func TestFontconfigEscapesNames(t *testing.T) {
	fc := requireFontconfig(t)
	if got := fcEscape(`Awami Nastaliq:agca=1,x-y\z`); got != `Awami Nastaliq\:agca=1\,x\-y\\z` {
		t.Errorf("escaped %q", got)
	}
	if lacks := fc.Lacks("Awami Nastaliq:agca=1", []rune("a")); len(lacks) != 1 {
		t.Errorf("a font that is not installed has %q", "a")
	}
	if lacks := fc.Lacks("Noto Nastaliq Urdu", []rune("0")); len(lacks) != 0 {
		t.Errorf("Noto Nastaliq Urdu lacks 0")
	}
}
