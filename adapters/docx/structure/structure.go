// Package structure is the structure check: it compares a source .docx
// with its translation and reports what the translation lost: paragraphs, tables (and their nesting), rows,
// cells, hyperlinks (with identical targets), images, notes, comments,
// sections, text boxes, and, paragraph by paragraph, formatting spans: every
// kind of formatting that covered a word in the source must cover a word in
// the output. Words themselves are expected to change.
package structure

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/dragoman-translate/dragoman/adapters/ooxml"
)

// Counts are the structure of one package.
type Counts struct {
	Paragraphs    int
	Tables        int
	MaxTableDepth int
	Rows          int
	Cells         int
	Hyperlinks    int
	Images        int
	Footnotes     int
	Endnotes      int
	Comments      int
	NoteRefs      int
	Sections      int
	TextBoxes     int
	FormatSpans   int
	// LinkTargets are the hyperlink targets, sorted.
	LinkTargets []string
}

// Report is the outcome of a comparison.
type Report struct {
	Source, Output Counts
	// Losses are what the output lost; Notes are harmless differences.
	Losses []string
	Notes  []string
}

// Lost reports whether anything was lost.
func (r *Report) Lost() bool { return len(r.Losses) > 0 }

// Summary is a one-line verdict the pipeline stores with the job.
func (r *Report) Summary() string {
	s := r.Source
	verdict := "no loss"
	if r.Lost() {
		verdict = fmt.Sprintf("%d losses: %s", len(r.Losses), strings.Join(first(r.Losses, 3), "; "))
	}
	return fmt.Sprintf("fidelity: %s (paragraphs %d, tables %d depth %d, hyperlinks %d, images %d, notes %d+%d, comments %d, sections %d, text boxes %d, formatting spans %d→%d)",
		verdict, s.Paragraphs, s.Tables, s.MaxTableDepth, s.Hyperlinks, s.Images, s.Footnotes, s.Endnotes, s.Comments, s.Sections, s.TextBoxes, s.FormatSpans, r.Output.FormatSpans)
}

func first(s []string, n int) []string {
	if len(s) > n {
		return append(s[:n:n], "…")
	}
	return s
}

// Print writes the full report.
func (r *Report) Print(w io.Writer) {
	fmt.Fprintf(w, "%-16s %8s %8s\n", "", "source", "output")
	row := func(name string, a, b int) {
		mark := ""
		if a != b {
			mark = "  *"
		}
		fmt.Fprintf(w, "%-16s %8d %8d%s\n", name, a, b, mark)
	}
	s, o := r.Source, r.Output
	row("paragraphs", s.Paragraphs, o.Paragraphs)
	row("tables", s.Tables, o.Tables)
	row("table depth", s.MaxTableDepth, o.MaxTableDepth)
	row("rows", s.Rows, o.Rows)
	row("cells", s.Cells, o.Cells)
	row("hyperlinks", s.Hyperlinks, o.Hyperlinks)
	row("images", s.Images, o.Images)
	row("footnotes", s.Footnotes, o.Footnotes)
	row("endnotes", s.Endnotes, o.Endnotes)
	row("comments", s.Comments, o.Comments)
	row("note refs", s.NoteRefs, o.NoteRefs)
	row("sections", s.Sections, o.Sections)
	row("text boxes", s.TextBoxes, o.TextBoxes)
	row("format spans", s.FormatSpans, o.FormatSpans)
	for _, l := range r.Losses {
		fmt.Fprintln(w, "LOST:", l)
	}
	for _, n := range r.Notes {
		fmt.Fprintln(w, "note:", n)
	}
	fmt.Fprintln(w, r.Summary())
}

// Compare reads two files and compares them.
func Compare(srcPath, outPath string) (*Report, error) {
	a, err := scanFile(srcPath)
	if err != nil {
		return nil, fmt.Errorf("source: %w", err)
	}
	b, err := scanFile(outPath)
	if err != nil {
		return nil, fmt.Errorf("output: %w", err)
	}
	return compare(a, b), nil
}

// CompareReaders compares two packages held in readers.
func CompareReaders(src io.ReaderAt, srcSize int64, out io.ReaderAt, outSize int64) (*Report, error) {
	a, err := scan(src, srcSize)
	if err != nil {
		return nil, fmt.Errorf("source: %w", err)
	}
	b, err := scan(out, outSize)
	if err != nil {
		return nil, fmt.Errorf("output: %w", err)
	}
	return compare(a, b), nil
}

func scanFile(p string) (*pkgStats, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	return scan(f, st.Size())
}

// pkgStats is everything measured in one package.
type pkgStats struct {
	counts Counts
	parts  map[string][]*Para // per part, paragraphs in order
	order  []string
}

func compare(a, b *pkgStats) *Report {
	r := compareCounts(a.counts, b.counts)
	for _, part := range a.order {
		r.Losses = append(r.Losses, lostFormatting(part, 0, a.parts[part], b.parts[part])...)
	}
	return r
}

// compareCounts is the report on two packages' counts.
func compareCounts(s, o Counts) *Report {
	r := &Report{Source: s, Output: o}
	less := func(name string, x, y int) {
		if y < x {
			r.Losses = append(r.Losses, fmt.Sprintf("%s: %d in source, %d in output", name, x, y))
		} else if y > x {
			r.Notes = append(r.Notes, fmt.Sprintf("%s: %d in source, %d in output", name, x, y))
		}
	}
	less("paragraphs", s.Paragraphs, o.Paragraphs)
	less("tables", s.Tables, o.Tables)
	less("table nesting depth", s.MaxTableDepth, o.MaxTableDepth)
	less("rows", s.Rows, o.Rows)
	less("cells", s.Cells, o.Cells)
	less("hyperlinks", s.Hyperlinks, o.Hyperlinks)
	less("images", s.Images, o.Images)
	less("footnotes", s.Footnotes, o.Footnotes)
	less("endnotes", s.Endnotes, o.Endnotes)
	less("comments", s.Comments, o.Comments)
	less("note and comment references", s.NoteRefs, o.NoteRefs)
	less("sections", s.Sections, o.Sections)
	less("text boxes", s.TextBoxes, o.TextBoxes)
	if strings.Join(s.LinkTargets, "\n") != strings.Join(o.LinkTargets, "\n") {
		r.Losses = append(r.Losses, "hyperlink targets differ: "+diffList(s.LinkTargets, o.LinkTargets))
	}
	if o.FormatSpans != s.FormatSpans {
		r.Notes = append(r.Notes, fmt.Sprintf("formatting spans: %d in source, %d in output", s.FormatSpans, o.FormatSpans))
	}
	return r
}

// lostFormatting compares the paragraphs of a part (or of a block of it,
// whose first paragraph is the part's from-th), paragraph by paragraph:
// every kind of formatting that covered a word in the source must cover
// one in the output. Different counts are reported by the counts.
func lostFormatting(part string, from int, ps, po []*Para) []string {
	if len(ps) != len(po) {
		return nil
	}
	var out []string
	for i := range ps {
		for sig, words := range ps[i].words {
			if sig != "" && words > 0 && po[i].words[sig] == 0 {
				out = append(out, fmt.Sprintf("%s paragraph %d (%q): formatting %s on %d source words is on no output word", part, from+i, clip(ps[i].text), sig, words))
			}
		}
	}
	return out
}

func clip(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}

func diffList(a, b []string) string {
	m := map[string]int{}
	for _, x := range a {
		m[x]++
	}
	for _, x := range b {
		m[x]--
	}
	var out []string
	for k, v := range m {
		if v > 0 {
			out = append(out, "missing "+k)
		} else if v < 0 {
			out = append(out, "extra "+k)
		}
	}
	sort.Strings(out)
	return strings.Join(first(out, 5), ", ")
}

// scan measures every story part of a package, block by block.
func scan(r io.ReaderAt, size int64) (*pkgStats, error) {
	pk, err := ooxml.OpenLenient(r, size)
	if err != nil {
		return nil, err
	}
	st := &pkgStats{parts: map[string][]*Para{}}
	for _, f := range pk.Files() {
		if pk.Kind(f) != ooxml.Story {
			continue // the WordprocessingML parts are compared
		}
		sc, err := PartScan(pk, f.Name, &st.counts, true)
		if err != nil {
			return nil, err
		}
		var paras []*Para
		s := &ooxml.StoryStream{Open: sc.Open, Block: func(b *ooxml.Block) error {
			paras = append(paras, sc.Block(b)...)
			return nil
		}}
		if err := pk.Stream(f, nil, ooxml.Edit{Story: s}); err != nil {
			return nil, err
		}
		st.parts[f.Name] = paras
		st.order = append(st.order, f.Name)
	}
	sort.Strings(st.counts.LinkTargets)
	return st, nil
}

// Tally is the structure check of a render: the counts of the source
// (read) and the output (as rendered), and the formatting each rendered
// paragraph lost.
type Tally struct {
	Source, Output Counts
	losses         []string
}

// Paragraphs compares the paragraphs of a block of part as read (src)
// and rendered (out); from is the part's number of its first.
func (t *Tally) Paragraphs(part string, from int, src, out []*Para) {
	t.losses = append(t.losses, lostFormatting(part, from, src, out)...)
}

// Report is the tally's verdict.
func (t *Tally) Report() *Report {
	sort.Strings(t.Source.LinkTargets)
	sort.Strings(t.Output.LinkTargets)
	r := compareCounts(t.Source, t.Output)
	r.Losses = append(r.Losses, t.losses...)
	return r
}

// Add adds the counts of c (a part copied as it is) to t's.
func (t *Counts) Add(c Counts) {
	t.Paragraphs += c.Paragraphs
	t.Tables += c.Tables
	t.MaxTableDepth = max(t.MaxTableDepth, c.MaxTableDepth)
	t.Rows += c.Rows
	t.Cells += c.Cells
	t.Hyperlinks += c.Hyperlinks
	t.Images += c.Images
	t.Footnotes += c.Footnotes
	t.Endnotes += c.Endnotes
	t.Comments += c.Comments
	t.NoteRefs += c.NoteRefs
	t.Sections += c.Sections
	t.TextBoxes += c.TextBoxes
	t.FormatSpans += c.FormatSpans
	t.LinkTargets = append(t.LinkTargets, c.LinkTargets...)
}
