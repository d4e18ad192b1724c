package e2e

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/docx/structure"
	"github.com/dragoman-translate/dragoman/plugins/libreoffice/pool"
)

var hasWord = regexp.MustCompile(`\p{L}{3,}`)

// reportConversionLoss converts each document again with the converter's
// own pool (what the pipeline translated), checks that text survived and
// was translated, runs the fidelity check between that .docx and the
// API's output, and compares the conversion with the source's own
// structure, so users can tell LibreOffice's losses from the pipeline's.
func reportConversionLoss(t *testing.T, results []apiResult) {
	p, err := pool.New(pool.Config{Size: 2, TempDir: t.TempDir(), Timeout: 10 * time.Minute}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	type row struct {
		rel            string
		src            sourceCounts
		conv           sourceCounts
		measured       bool
		pipelineLosses []string
	}
	rows := make([]row, len(results))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i, r := range results {
		if r.status != "completed" {
			continue
		}
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			rel, _ := filepath.Rel(corpusDir, r.file)
			data, err := os.ReadFile(r.file)
			if err != nil {
				t.Error(err)
				return
			}
			var conv bytes.Buffer
			if err := p.Convert(context.Background(), kindOf(data), bytes.NewReader(data), &conv); err != nil {
				t.Errorf("%s: converting directly: %+v", rel, err)
				return
			}
			convText, _ := documentText(conv.Bytes())
			outText, err := documentText(r.output)
			if err != nil {
				t.Errorf("%s: %v", rel, err)
				return
			}
			if strings.TrimSpace(convText) != "" && strings.TrimSpace(outText) == "" {
				t.Errorf("%s: the conversion has text, the translation none", rel)
			}
			// Cell names such as "A1" are identifiers professional mode keeps.
			if hasWord.MatchString(convText) && outText == convText {
				t.Errorf("%s: the output's text is the source's: not translated", rel)
			}
			rep, err := structure.CompareReaders(bytes.NewReader(conv.Bytes()), int64(conv.Len()), bytes.NewReader(r.output), int64(len(r.output)))
			if err != nil {
				t.Errorf("%s: fidelity: %v", rel, err)
				return
			}
			if r.fidelity != "" && r.fidelity != rep.Summary() {
				t.Logf("%s: the job's fidelity summary differs from a fresh conversion's:\n  job:   %s\n  fresh: %s", rel, r.fidelity, rep.Summary())
			}
			src, ok := countSource(rel, data)
			rows[i] = row{rel: rel, src: src, conv: countDocx(conv.Bytes()), measured: ok, pipelineLosses: rep.Losses}
		})
	}
	wg.Wait()

	// What LibreOffice loses, per format, and what the pipeline loses after it.
	type tally struct{ files, lossy, pipelineLossy int }
	tallies := map[string]*tally{}
	var lines []string
	for _, r := range rows {
		if r.rel == "" {
			continue
		}
		format := strings.TrimPrefix(filepath.Ext(r.rel), ".")
		tl := tallies[format]
		if tl == nil {
			tl = &tally{}
			tallies[format] = tl
		}
		tl.files++
		if len(r.pipelineLosses) > 0 {
			tl.pipelineLossy++
			lines = append(lines, fmt.Sprintf("pipeline  %-60s %s", r.rel, strings.Join(r.pipelineLosses, "; ")))
		}
		if !r.measured {
			continue
		}
		if d := r.src.diff(r.conv); d != "" {
			tl.lossy++
			lines = append(lines, fmt.Sprintf("converter %-60s %s", r.rel, d))
		}
	}
	sort.Strings(lines)
	for _, l := range lines {
		t.Log(l)
	}
	for _, f := range []string{"doc", "odt", "rtf"} {
		if tl := tallies[f]; tl != nil {
			t.Logf(".%s: %d files; LibreOffice's .docx differs from the source's own structure in %d; the translation lost structure against that .docx in %d",
				f, tl.files, tl.lossy, tl.pipelineLossy)
		}
	}
}

// kindOf tells Word binaries, ODT and RTF apart for the direct conversion.
func kindOf(data []byte) pool.Kind {
	switch {
	case bytes.HasPrefix(data, []byte("PK")):
		return pool.ODT
	case bytes.HasPrefix(data, []byte(`{\rtf`)):
		return pool.RTF
	}
	return pool.Word
}

// sourceCounts is what a source file itself says about its structure,
// counted straight from its markup (-1: not measurable in this format).
type sourceCounts struct {
	Rows, Cells, Depth, Hyperlinks, Images, Footnotes, Endnotes, Comments, TextBoxes int
}

// countSource reads ODT content.xml or RTF control words; Word binaries
// would need a parser of their own, so .doc is not measured.
func countSource(rel string, data []byte) (sourceCounts, bool) {
	switch kindOf(data).Name {
	case "odt":
		return countODT(data)
	case "rtf":
		return countRTF(data), true
	}
	return sourceCounts{}, false
}

func countODT(data []byte) (sourceCounts, bool) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return sourceCounts{}, false
	}
	var x []byte
	for _, f := range zr.File {
		if f.Name == "content.xml" {
			rc, _ := f.Open()
			x, _ = io.ReadAll(rc)
			rc.Close()
		}
	}
	n := func(re string) int { return len(regexp.MustCompile(re).FindAllIndex(x, -1)) }
	c := sourceCounts{
		Rows:       n(`<table:table-row[ />]`),
		Cells:      n(`<table:table-cell[ />]`) + n(`<table:covered-table-cell[ />]`),
		Hyperlinks: n(`<text:a[ >]`),
		Images:     n(`<draw:image[ />]`),
		Footnotes:  n(`<text:note [^>]*text:note-class="footnote"`),
		Endnotes:   n(`<text:note [^>]*text:note-class="endnote"`),
		Comments:   n(`<office:annotation[ >]`),
		TextBoxes:  n(`<draw:text-box[ />]`),
	}
	depth := 0
	for _, m := range regexp.MustCompile(`<table:table[ >]|</table:table>`).FindAll(x, -1) {
		if m[1] == '/' {
			depth--
		} else if depth++; depth > c.Depth {
			c.Depth = depth
		}
	}
	return c, true
}

func countRTF(data []byte) sourceCounts {
	n := func(re string) int { return len(regexp.MustCompile(re).FindAllIndex(data, -1)) }
	c := sourceCounts{
		Rows:       n(`\\row(?:[^a-z]|$)`) + n(`\\nestrow(?:[^a-z]|$)`),
		Cells:      n(`\\cell(?:[^a-z]|$)`) + n(`\\nestcell(?:[^a-z]|$)`),
		Hyperlinks: n(`HYPERLINK`),
		Images:     n(`\\pict(?:[^a-z]|$)`),
		Endnotes:   n(`\\footnote\s*\\ftnalt`),
		Comments:   n(`\\annotation(?:[^a-z]|$)`),
		TextBoxes:  n(`\\shptxt(?:[^a-z]|$)`),
	}
	c.Footnotes = n(`\\footnote(?:[^a-z]|$)`) - c.Endnotes
	c.Depth = 0
	if c.Rows > 0 {
		c.Depth = 1
	}
	for _, m := range regexp.MustCompile(`\\itap(\d+)`).FindAllSubmatch(data, -1) {
		var d int
		fmt.Sscan(string(m[1]), &d)
		c.Depth = max(c.Depth, d)
	}
	return c
}

// countDocx counts a .docx the way the sources are counted: body and
// notes, pictures rather than every drawing, notes without Word's
// separators, cells by the columns they span, and never the VML fallback
// LibreOffice writes beside each DrawingML shape.
func countDocx(b []byte) sourceCounts {
	var c sourceCounts
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return c
	}
	for _, f := range zr.File {
		switch f.Name {
		case "word/document.xml", "word/footnotes.xml", "word/endnotes.xml", "word/comments.xml":
		default:
			continue
		}
		rc, err := f.Open()
		if err != nil {
			continue
		}
		dec := xml.NewDecoder(rc)
		depth, fallback := 0, 0
		for {
			tok, err := dec.Token()
			if err != nil {
				break
			}
			switch e := tok.(type) {
			case xml.StartElement:
				if fallback > 0 || e.Name.Local == "Fallback" {
					fallback++
					continue
				}
				attr := func(name string) string {
					for _, a := range e.Attr {
						if a.Name.Local == name {
							return a.Value
						}
					}
					return ""
				}
				switch e.Name.Local {
				case "tbl":
					if depth++; depth > c.Depth {
						c.Depth = depth
					}
				case "tr":
					c.Rows++
				case "tc":
					c.Cells++
				case "gridSpan":
					var n int
					fmt.Sscan(attr("val"), &n)
					c.Cells += max(n, 1) - 1
				case "hyperlink":
					c.Hyperlinks++
				case "instrText":
					if t, err := dec.Token(); err == nil {
						if cd, ok := t.(xml.CharData); ok && bytes.Contains(cd, []byte("HYPERLINK")) {
							c.Hyperlinks++
						}
					}
				case "pic", "imagedata":
					c.Images++
				case "footnote", "endnote":
					if attr("type") == "" || attr("type") == "normal" {
						if e.Name.Local == "footnote" {
							c.Footnotes++
						} else {
							c.Endnotes++
						}
					}
				case "comment":
					c.Comments++
				case "txbxContent":
					c.TextBoxes++
				}
			case xml.EndElement:
				if fallback > 0 {
					fallback--
				} else if e.Name.Local == "tbl" {
					depth--
				}
			}
		}
		rc.Close()
	}
	return c
}

// diff names the counts the conversion changed.
func (s sourceCounts) diff(d sourceCounts) string {
	var out []string
	cmp := func(name string, a, b int) {
		if a != b {
			out = append(out, fmt.Sprintf("%s %d→%d", name, a, b))
		}
	}
	cmp("rows", s.Rows, d.Rows)
	cmp("cells", s.Cells, d.Cells)
	cmp("table depth", s.Depth, d.Depth)
	cmp("hyperlinks", s.Hyperlinks, d.Hyperlinks)
	cmp("images", s.Images, d.Images)
	cmp("footnotes", s.Footnotes, d.Footnotes)
	cmp("endnotes", s.Endnotes, d.Endnotes)
	cmp("comments", s.Comments, d.Comments)
	cmp("text boxes", s.TextBoxes, d.TextBoxes)
	return strings.Join(out, ", ")
}
