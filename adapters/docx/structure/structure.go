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
	"path"
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
	parts  map[string][]paraFmt // per part, paragraphs in order
	order  []string
}

func compare(a, b *pkgStats) *Report {
	r := &Report{Source: a.counts, Output: b.counts}
	s, o := a.counts, b.counts
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
	for _, part := range a.order {
		ps, po := a.parts[part], b.parts[part]
		if len(ps) != len(po) {
			continue // already reported as a paragraph count difference
		}
		for i := range ps {
			for sig, words := range ps[i].words {
				if sig != "" && words > 0 && po[i].words[sig] == 0 {
					r.Losses = append(r.Losses, fmt.Sprintf("%s paragraph %d (%q): formatting %s on %d source words is on no output word", part, i, clip(ps[i].text), sig, words))
				}
			}
		}
	}
	return r
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

func scan(r io.ReaderAt, size int64) (*pkgStats, error) {
	pk, err := ooxml.OpenLenient(r, size)
	if err != nil {
		return nil, err
	}
	st := &pkgStats{parts: map[string][]paraFmt{}}
	for _, f := range pk.Files() {
		if pk.Kind(f) != ooxml.Story {
			continue // the WordprocessingML parts are compared
		}
		rels, err := readRels(pk, pk.File(path.Join(path.Dir(f.Name), "_rels", path.Base(f.Name)+".rels")))
		if err != nil {
			return nil, err
		}
		paras, err := scanPart(pk, f, rels, &st.counts)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		st.parts[f.Name] = paras
		st.order = append(st.order, f.Name)
	}
	sort.Strings(st.counts.LinkTargets)
	return st, nil
}
