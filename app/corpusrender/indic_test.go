package corpusrender

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode"

	"github.com/dragoman-translate/dragoman/adapters/rtl/rtltest"
)

// TestIndicRender (issue 22 §4): right to left with real words, offline.
// Hindi→Urdu and Urdu→Hindi through the real Apertium engine and the REST
// API (`dragoman serve` with DRAGOMAN_ENGINES=apertium, `dragoman
// translate --server`): the reports of indicdocs_test.go and the corpus's
// Hindi document (testdata/corpus/indic) pass the project's checks and the
// brief's checker with --render (run's check), and the reports also have
// every part in the target's script, their numbers and Latin words as
// written, sentence ends at the end edge, list markers and the table's
// first column at the start side, and header, footer and footnote where
// the direction puts them. DRAGOMAN_INDIC_MORE=dir adds that folder's
// Hindi .docx and Urdu .odt/.docx documents (e.g. the shared corpus's
// indic/) to the common checks, to measure them.
func TestIndicRender(t *testing.T) {
	requireApertiumPairs(t, "hin-urd", "urd-hin")
	r := newRun(t, "apertium")
	dir := filepath.Join(r.work, "built")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, d := range indicDocs() {
		r.add([]string{d.write(t, dir)}, d.from, d.to[0])
	}
	r.add([]string{filepath.Join(corpusRoot, "indic", "pdocxfmt-hindi.docx")}, "Hindi", "Urdu")
	if more := os.Getenv("DRAGOMAN_INDIC_MORE"); more != "" {
		hi, _ := filepath.Glob(filepath.Join(more, "*.docx"))
		ur, _ := filepath.Glob(filepath.Join(more, "*.odt"))
		var hiDocs []string
		for _, f := range hi {
			if urduDoc(t, f) {
				ur = append(ur, f)
			} else {
				hiDocs = append(hiDocs, f)
			}
		}
		r.add(hiDocs, "Hindi", "Urdu")
		r.add(ur, "Urdu", "Hindi")
	}
	r.more = func(o *output, out []byte, pages []rtltest.Page, fonts []string) {
		if strings.HasPrefix(o.label, "report-") {
			checkReport(t, o, out, pages)
			checkReportFonts(t, o, fonts)
		}
	}
	r.check()
}

// requireApertiumPairs fails, with the install hint, unless apertium
// serves every pair.
func requireApertiumPairs(t *testing.T, pairs ...string) {
	t.Helper()
	out, err := exec.Command("apertium", "-l").Output()
	for _, p := range pairs {
		if err != nil || !strings.Contains(" "+strings.Join(strings.Fields(string(out)), " ")+" ", " "+p+" ") {
			t.Fatalf("Apertium pair %s is required: make deps installs every pair (apt-get install apertium apertium-urd-hin) (apertium -l: %v)", p, err)
		}
	}
}

// urduDoc reports whether a .docx is mostly Arabic-script text.
func urduDoc(t *testing.T, path string) bool {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	arab, deva := 0, 0
	for _, r := range partText(t, data, "word/document.xml") {
		switch {
		case unicode.Is(unicode.Arabic, r):
			arab++
		case unicode.Is(unicode.Devanagari, r):
			deva++
		}
	}
	return arab > deva
}

var wText = regexp.MustCompile(`<w:t(?: [^>]*)?>([^<]*)</w:t>`)

// partText is the text of a package part's w:t elements, XML-escaped
// as written (the reports' text needs no unescaping).
func partText(t *testing.T, docx []byte, name string) string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(docx), int64(len(docx)))
	if err != nil {
		t.Fatal(err)
	}
	f, err := zr.Open(name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, m := range wText.FindAllSubmatch(data, -1) {
		b.Write(m[1])
	}
	return b.String()
}

// checkReport checks what the common checks do not on a translated report.
func checkReport(t *testing.T, o *output, out []byte, pages []rtltest.Page) {
	rtl := o.rtl()
	from, to := unicode.Arabic, unicode.Devanagari // Urdu → Hindi
	if rtl {
		from, to = unicode.Devanagari, unicode.Arabic
	}
	// Every part in the target's script: Apertium knows every word.
	for _, part := range []string{"word/document.xml", "word/header1.xml", "word/footer1.xml", "word/footnotes.xml"} {
		text := partText(t, out, part)
		if n := count(text, from); n > 0 || count(text, to) == 0 {
			t.Errorf("%s: %s: %d letters of the source script, %d of the target's: %q", o.label, part, n, count(text, to), clip(text, 200))
		}
	}
	marks := strings.NewReplacer("\u200e", "", "\u200f", "", "\u061c", "")
	body := marks.Replace(partText(t, out, "word/document.xml"))
	for _, m := range []string{markDate, markPhone, markPct, markCount, markYear, markFirst, markLast, markLatin1, markLatin2} {
		if !strings.Contains(body, m) {
			t.Errorf("%s: %q is not in the translated text", o.label, m)
		}
		// As written on the page too: a number scrambled by the
		// bidirectional algorithm (rule W2 in Arabic script) or a Latin
		// word laid out backwards is no longer one word in this order.
		if len(rtltest.Find(pages, m)) == 0 {
			t.Errorf("%s: %q is not rendered as written (page 1: %s)", o.label, m, clip(lineTexts(pages[0]), 300))
		}
	}
	left, right, err := rtltest.PageEdges(out)
	if err != nil {
		t.Fatal(err)
	}
	mid := (left + right) / 2
	// A sentence's end at the end edge of its line: the full stop after
	// the Latin words, the question mark after the year.
	for anchor, stops := range map[string]string{markLatin2: "۔।.", markYear: "؟?"} {
		ws := rtltest.Find(pages, anchor)
		if len(ws) == 0 {
			continue // reported above
		}
		line := rowOf(pages, ws[0]).words
		end := line[0]
		for _, w := range line {
			if rtl && w.XMin < end.XMin || !rtl && w.XMax > end.XMax {
				end = w
			}
		}
		if !strings.ContainsAny(end.Text, stops) {
			t.Errorf("%s: the line of %q ends with %q, not its sentence's end (%s)", o.label, anchor, end.Text, stops)
		}
	}
	// List markers and the table's first logical column on the start side:
	// five rows (three numbered items, two bullets) start with a marker.
	markers := 0
	marker := regexp.MustCompile(`^(\.?[1-3]\.?|\.|•)$`)
	for _, p := range pages {
		for _, r := range rows(p) {
			start := r.words[0]
			for _, w := range r.words {
				if rtl && w.XMax > start.XMax || !rtl && w.XMin < start.XMin {
					start = w
				}
			}
			dot := strings.Contains(start.Text, ".") || start.Text == "•"
			for _, w := range r.words {
				dot = dot || w.Text == "."
			}
			if marker.MatchString(start.Text) && dot { // not a footnote's number
				markers++
			}
		}
	}
	if markers != 5 {
		t.Errorf("%s: %d rows start with a list marker on the %s, want 3 numbered items and 2 bullets", o.label, markers, map[bool]string{true: "right", false: "left"}[rtl])
	}
	firsts, lasts := rtltest.Find(pages, markFirst), rtltest.Find(pages, markLast)
	if len(firsts) == 0 || len(lasts) == 0 || rtl != (firsts[0].XMin > lasts[0].XMin) {
		t.Errorf("%s: table's first column (%q) and last (%q) in the wrong order: %v %v", o.label, markFirst, markLast, firsts, lasts)
	}
	// Header at the start edge, footer centred, the footnote's line at the
	// start edge: the first, last and last but one rows of page 1.
	rs := rows(pages[0])
	if len(rs) < 3 {
		t.Fatalf("%s: %d rows on page 1", o.label, len(rs))
	}
	header, note, footer := rs[0], rs[len(rs)-2], rs[len(rs)-1]
	atStart := func(r row) bool {
		if rtl {
			return abs(r.xMax-right) < 3
		}
		return abs(r.xMin-left) < 3
	}
	if !atStart(header) {
		t.Errorf("%s: header %q at x=%.1f..%.1f, not at the start edge (text area %.1f..%.1f)", o.label, header.text, header.xMin, header.xMax, left, right)
	}
	if c := (footer.xMin + footer.xMax) / 2; abs(c-mid) > 3 {
		t.Errorf("%s: footer %q centred at x=%.1f, the text area's centre is %.1f", o.label, footer.text, c, mid)
	}
	if !atStart(note) {
		t.Errorf("%s: footnote %q at x=%.1f..%.1f, not at the start edge", o.label, note.text, note.xMin, note.xMax)
	}
}

// row is one rendered line as the eye sees it: pdftotext cuts Nastaliq
// lines into pieces and words at several heights, so a row is every word
// whose top lies within rowBand points of the row's first.
type row struct {
	yMin, xMin, xMax float64
	text             string
	words            []rtltest.Word
}

const rowBand = 8.0

// rows are a page's rows, top to bottom.
func rows(p rtltest.Page) []row {
	var ws []rtltest.Word
	for _, l := range p.Lines {
		ws = append(ws, l.Words...)
	}
	sort.SliceStable(ws, func(i, j int) bool { return ws[i].YMin < ws[j].YMin })
	var out []row
	for _, w := range ws {
		if n := len(out); n > 0 && w.YMin-out[n-1].words[len(out[n-1].words)-1].YMin < rowBand {
			r := &out[n-1]
			r.xMin, r.xMax = min(r.xMin, w.XMin), max(r.xMax, w.XMax)
			r.text += " " + w.Text
			r.words = append(r.words, w)
			continue
		}
		out = append(out, row{yMin: w.YMin, xMin: w.XMin, xMax: w.XMax, text: w.Text, words: []rtltest.Word{w}})
	}
	return out
}

// rowOf is the row holding w.
func rowOf(pages []rtltest.Page, w rtltest.Word) row {
	for _, p := range pages {
		for _, r := range rows(p) {
			for _, x := range r.words {
				if x == w {
					return r
				}
			}
		}
	}
	return row{words: []rtltest.Word{w}}
}

// reportFonts are the fonts a report's rendering may use: its Latin font
// (Calibri, which fontconfig replaces by Noto Sans here) and the
// complex-script font the layout writes for the target, with its fallback.
var reportFonts = map[string][]string{
	"Urdu":  {"NotoSans-", "NotoNastaliqUrdu", "Amiri"},
	"Hindi": {"NotoSans-", "NotoSansDevanagari"},
}

// checkReportFonts: no font stands in for one the layout wrote (the
// Hindi report drew its digits in Noto Nastaliq Urdu, its complex-script
// font, before Hindi got a Devanagari one).
func checkReportFonts(t *testing.T, o *output, fonts []string) {
	for _, f := range fonts {
		ok := false
		for _, want := range reportFonts[o.to] {
			ok = ok || strings.HasPrefix(f, want)
		}
		if !ok {
			t.Errorf("%s: %s used (fonts: %v): a fallback stands in for the layout's fonts", o.label, f, fonts)
		}
	}
}

func count(s string, tab *unicode.RangeTable) int {
	n := 0
	for _, r := range s {
		if unicode.Is(tab, r) {
			n++
		}
	}
	return n
}

func lineTexts(p rtltest.Page) string {
	var s []string
	for _, l := range p.Lines {
		s = append(s, l.Text)
	}
	return strings.Join(s, " | ")
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}
