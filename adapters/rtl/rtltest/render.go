package rtltest

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Word is one word pdftotext found, in PDF points.
type Word struct {
	XMin, XMax, YMin float64
	Text             string
}

// Line is one rendered line.
type Line struct {
	XMin, XMax, YMin float64
	YMax             float64 // 0 when unknown (lines made by hand)
	Text             string
	Words            []Word
}

// Page is one rendered page.
type Page struct {
	Lines []Line
}

// ToPDF converts documents with LibreOffice in one process, with its own
// profile directory so parallel conversions do not share a lock.
func ToPDF(ctx context.Context, workDir string, docx ...string) ([]string, error) {
	profile := filepath.Join(workDir, "lo-profile")
	args := []string{"-env:UserInstallation=file://" + profile, "--headless", "--norestore", "--convert-to", "pdf", "--outdir", workDir}
	cmd := exec.CommandContext(ctx, "soffice", append(args, docx...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("soffice: %v: %s", err, out)
	}
	var pdfs []string
	for _, d := range docx {
		p := filepath.Join(workDir, strings.TrimSuffix(filepath.Base(d), filepath.Ext(d))+".pdf")
		if _, err := os.Stat(p); err != nil {
			return nil, fmt.Errorf("soffice produced no PDF for %s: %s", d, out)
		}
		pdfs = append(pdfs, p)
	}
	return pdfs, nil
}

// Layout reads every line's box with pdftotext -bbox-layout.
func Layout(ctx context.Context, pdf string) ([]Page, error) {
	out, err := exec.CommandContext(ctx, "pdftotext", "-bbox-layout", pdf, "-").Output()
	if err != nil {
		return nil, fmt.Errorf("pdftotext: %w", err)
	}
	d := xml.NewDecoder(bytes.NewReader(out))
	d.Strict, d.AutoClose, d.Entity = false, xml.HTMLAutoClose, xml.HTMLEntity
	var pages []Page
	var line *Line
	var word *Word
	num := func(a []xml.Attr, k string) float64 {
		for _, x := range a {
			if x.Name.Local == k {
				f, _ := strconv.ParseFloat(x.Value, 64)
				return f
			}
		}
		return 0
	}
	for {
		tok, err := d.Token()
		if err != nil {
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "page":
				pages = append(pages, Page{})
			case "line":
				line = &Line{XMin: num(t.Attr, "xMin"), XMax: num(t.Attr, "xMax"), YMin: num(t.Attr, "yMin"), YMax: num(t.Attr, "yMax")}
			case "word":
				word = &Word{XMin: num(t.Attr, "xMin"), XMax: num(t.Attr, "xMax"), YMin: num(t.Attr, "yMin")}
			}
		case xml.CharData:
			if word != nil {
				word.Text += string(t)
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "word":
				if line != nil && word != nil {
					line.Words = append(line.Words, *word)
				}
				word = nil
			case "line":
				if line != nil && len(pages) > 0 {
					var ws []string
					for _, w := range line.Words {
						ws = append(ws, w.Text)
					}
					line.Text = strings.Join(ws, " ")
					p := &pages[len(pages)-1]
					p.Lines = append(p.Lines, *line)
				}
				line = nil
			}
		}
	}
	if len(pages) == 0 {
		return nil, fmt.Errorf("pdftotext found no pages in %s", pdf)
	}
	return pages, nil
}

// Fonts lists the font names pdffonts reports (subset prefixes removed).
func Fonts(ctx context.Context, pdf string) ([]string, error) {
	out, err := exec.CommandContext(ctx, "pdffonts", pdf).Output()
	if err != nil {
		return nil, fmt.Errorf("pdffonts: %w", err)
	}
	var names []string
	for i, l := range strings.Split(string(out), "\n") {
		f := strings.Fields(l)
		if i < 2 || len(f) == 0 {
			continue
		}
		name := f[0]
		if j := strings.IndexByte(name, '+'); j == 6 {
			name = name[j+1:]
		}
		names = append(names, name)
	}
	return names, nil
}

// RenderTarget is what the render check expects of one document.
type RenderTarget struct {
	RTL bool
	// Left and Right are the text-area edges in points (see PageEdges).
	Left, Right float64
	// EndAligned paragraphs may render at the opposite edge (Stats).
	EndAligned int
	// FirstCell, LastCell mark the first and last cell of tables' first
	// rows; Columns marks the first paragraph of a multi-column section.
	FirstCell, LastCell, Columns string
	// CSFont is the complex-script font that must really be used.
	CSFont string
}

const tol = 3.0

// CheckRender applies the render checks (README "How the RTL output is
// checked") to a rendering.
func CheckRender(pages []Page, fonts []string, t RenderTarget) []Finding {
	var fs []Finding
	fail := func(rule, format string, a ...any) {
		fs = append(fs, Finding{"render", rule, fmt.Sprintf(format, a...)})
	}
	width := t.Right - t.Left
	atStart := 0
	var wrong []string
	for pi, p := range pages {
		// Wrapped lines of one end-aligned paragraph form one group, and
		// headers repeat on every page, so the bound is per page.
		lines := joinPieces(p.Lines)
		groups, prevEnd := 0, false
		for _, l := range lines {
			rtl, lat := rtlChar.MatchString(l.Text), latinLetter.MatchString(l.Text)
			if t.RTL && (!rtl || lat) || !t.RTL && (rtl || !lat) {
				prevEnd = false
				continue // only lines of the target direction alone
			}
			left := math.Abs(l.XMin-t.Left) < tol
			right := math.Abs(l.XMax-t.Right) < tol
			startEdge, endEdge := right, left
			if !t.RTL {
				startEdge, endEdge = left, right
			}
			if startEdge {
				atStart++
			}
			end := endEdge && !startEdge && l.XMax-l.XMin < 0.8*width && !inNarrowerBox(l, lines, t.RTL)
			if end && !prevEnd {
				groups++
				wrong = append(wrong, fmt.Sprintf("p%d %q", pi+1, clip(l.Text)))
			}
			prevEnd = end
		}
		if groups > t.EndAligned {
			fail("paragraph edge", "page %d: %d paragraphs sit at the end edge but only %d are end-aligned: %s", pi+1, groups, t.EndAligned, strings.Join(first(wrong, 5), "; "))
		}
		wrong = nil
	}
	if atStart == 0 && t.EndAligned == 0 && len(wrong) > 0 {
		fail("paragraph edge", "no line of the target direction starts at the %s edge", startName(t.RTL))
	}
	if t.FirstCell != "" {
		a, b := find(pages, t.FirstCell), find(pages, t.LastCell)
		for i := 0; i < len(a) && i < len(b); i++ {
			ca, cb := (a[i].XMin+a[i].XMax)/2, (b[i].XMin+b[i].XMax)/2
			if t.RTL != (ca > cb) {
				fail("table order", "first logical cell at x=%.0f, last at x=%.0f (table %d)", ca, cb, i+1)
			}
		}
	}
	if t.Columns != "" {
		for _, w := range find(pages, t.Columns) {
			c := (w.XMin + w.XMax) / 2
			if t.RTL != (c > (t.Left+t.Right)/2) {
				fail("column order", "first paragraph of a multi-column section at x=%.0f", c)
			}
		}
	}
	if t.CSFont != "" {
		want := strings.ToLower(strings.ReplaceAll(t.CSFont, " ", ""))
		used := false
		for _, f := range fonts {
			if strings.HasPrefix(strings.ToLower(f), want) {
				used = true
			}
		}
		if !used {
			fail("fonts", "%s is not among the fonts used (%s): a fallback replaced it", t.CSFont, strings.Join(fonts, ", "))
		}
	}
	return fs
}

// pieceGap is the widest gap between two pieces of one rendered line that
// pdftotext reports apart (the stretched word spaces of a justified line).
const pieceGap = 20.0

// joinPieces sorts a page's lines top to bottom and joins the pieces
// pdftotext cuts one rendered line into. Pieces of one row (the same
// baseline, or, for Nastaliq, whose glyphs sit at several heights,
// overlapping heights) are joined when less than pieceGap apart (a
// justified Hebrew line came out as 8 "lines" with gaps of 17 pt), and a
// whole row when no gap is wider than 2×pieceGap or three or more gaps
// are alike (justification stretches every space alike: Arabic in Amiri,
// 7 pieces 23.7 pt apart; a Nastaliq line, 20.5 to 21.7 pt, or with
// kashidas 64 to 69 pt). Cells and columns are further apart, or
// unevenly, and stay separate.
func joinPieces(in []Line) []Line {
	lines := append([]Line(nil), in...)
	sort.SliceStable(lines, func(i, j int) bool { return lines[i].YMin < lines[j].YMin })
	var out []Line
	for i := 0; i < len(lines); {
		j := i + 1 // lines[i:j] are one row
		for j < len(lines) && inRow(lines[i:j], lines[j]) {
			j++
		}
		row := append([]Line(nil), lines[i:j]...)
		sort.SliceStable(row, func(a, b int) bool { return row[a].XMin < row[b].XMin })
		out = append(out, joinRow(row)...)
		i = j
	}
	return out
}

// inRow: l's baseline is one of row's, or its height overlaps one of
// theirs by half the smaller height.
func inRow(row []Line, l Line) bool {
	for _, m := range row {
		if sameRow(m, l) {
			return true
		}
	}
	return false
}

func sameRow(a, b Line) bool {
	if math.Abs(a.YMin-b.YMin) <= 0.5 {
		return true
	}
	if a.YMax <= a.YMin || b.YMax <= b.YMin {
		return false
	}
	overlap := math.Min(a.YMax, b.YMax) - math.Max(a.YMin, b.YMin)
	return overlap >= 0.5*math.Min(a.YMax-a.YMin, b.YMax-b.YMin)
}

// joinRow joins the pieces of one row (sorted left to right).
func joinRow(row []Line) []Line {
	var out []Line
	for _, l := range row {
		if n := len(out); n > 0 && l.XMin-out[n-1].XMax < pieceGap && l.XMin >= out[n-1].XMin {
			merge(&out[n-1], l)
			continue
		}
		out = append(out, l)
	}
	lo, hi := math.Inf(1), 0.0
	for k := 1; k < len(out); k++ {
		g := out[k].XMin - out[k-1].XMax
		if g < 0 {
			return out
		}
		lo, hi = math.Min(lo, g), math.Max(hi, g)
	}
	// Narrow gaps, or three or more alike (a justified Nastaliq line
	// stretched by kashidas: 5 pieces 64 to 69 pt apart).
	if hi >= 2*pieceGap && (len(out) < 4 || hi-lo > 0.1*hi) {
		return out
	}
	for _, l := range out[1:] {
		merge(&out[0], l)
	}
	return out[:1]
}

func merge(into *Line, l Line) {
	into.XMax = math.Max(into.XMax, l.XMax)
	into.YMin, into.YMax = math.Min(into.YMin, l.YMin), math.Max(into.YMax, l.YMax)
	into.Text += " " + l.Text
	into.Words = append(into.Words, l.Words...)
}

// inNarrowerBox reports whether line l, at the end edge, is aligned to
// the start of a box narrower than the text area (a table cell, a
// section's column): a line of the same block 40 points above or below
// starts where it, or its text after a hanging list marker, starts and
// ends short of where it ends. The brief's checker excuses these lines
// the same way.
func inNarrowerBox(l Line, lines []Line, rtl bool) bool {
	starts := []float64{l.XMin, l.XMax}
	for _, w := range l.Words {
		starts = append(starts, w.XMin, w.XMax)
	}
	for _, m := range lines {
		if math.Abs(m.YMin-l.YMin) > 40 || math.Abs(m.YMin-l.YMin) <= 0.5 {
			continue
		}
		for _, s := range starts {
			if rtl && math.Abs(m.XMax-s) < tol && m.XMin > l.XMin+tol ||
				!rtl && math.Abs(m.XMin-s) < tol && m.XMax < l.XMax-tol {
				return true
			}
		}
	}
	return false
}

func startName(rtl bool) string {
	if rtl {
		return "right"
	}
	return "left"
}

func first(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// Find returns the words equal to text (marks trimmed), page by page.
func Find(pages []Page, text string) []Word { return find(pages, text) }

// find returns the words equal to text, in reading order of pages.
func find(pages []Page, text string) []Word {
	var out []Word
	for _, p := range pages {
		for _, l := range p.Lines {
			for _, w := range l.Words {
				if strings.Trim(w.Text, "\u200e\u200f") == text {
					out = append(out, w)
				}
			}
		}
	}
	return out
}

// PageEdges are the text-area edges in points of the body's last section.
func PageEdges(docx []byte) (left, right float64, err error) {
	d, err := openDocx(docx)
	if err != nil {
		return 0, 0, err
	}
	var sect *el
	if doc := d.parts["word/document.xml"]; doc != nil {
		sect = doc.kid("body").kid("sectPr")
	}
	w, l, r := 12240.0, 1440.0, 1440.0
	if v, err := strconv.ParseFloat(sect.kid("pgSz").attrOr("w"), 64); err == nil {
		w = v
	}
	if v, err := strconv.ParseFloat(sect.kid("pgMar").attrOr("left"), 64); err == nil {
		l = v
	}
	if v, err := strconv.ParseFloat(sect.kid("pgMar").attrOr("right"), 64); err == nil {
		r = v
	}
	return l / 20, (w - r) / 20, nil
}
