package structure

import (
	"archive/zip"
	"io"
	"strings"

	"github.com/dragoman-translate/dragoman/adapters/ooxml"
	"github.com/dragoman-translate/dragoman/adapters/ooxml/xmlscan"
)

// visible formatting: what a reader sees. Direction, fonts and proofing
// language are left out, because the RTL layout pass changes them on purpose.
// Bold, italic and size have complex-script twins (bCs, iCs, szCs): see
// runProps.sig.
var visible = map[string]bool{
	"b": true, "i": true, "u": true, "strike": true, "dstrike": true, "caps": true, "smallCaps": true,
	"vertAlign": true, "highlight": true, "color": true, "shd": true, "rStyle": true, "emboss": true,
	"imprint": true, "outline": true, "shadow": true, "sz": true, "vanish": true,
}

// paraFmt is one paragraph's formatted text: words per formatting signature.
type paraFmt struct {
	runs  []run
	words map[string]int
	text  string
}

type run struct{ sig, text string }

func readRels(pk *ooxml.Package, f *zip.File) (map[string]string, error) {
	rels := map[string]string{}
	if f == nil {
		return rels, nil
	}
	rc, err := pk.Open(f)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	sc := xmlscan.New(rc)
	for {
		t, err := sc.Next()
		if err == io.EOF {
			return rels, nil
		}
		if err != nil {
			return nil, err
		}
		if (t.Kind == xmlscan.Start || t.Kind == xmlscan.Empty) && string(xmlscan.Local(t.Name)) == "Relationship" {
			id, _ := xmlscan.AttrValue(t.Raw, "Id")
			target, _ := xmlscan.AttrValue(t.Raw, "Target")
			rels[id] = target
		}
	}
}

func scanPart(pk *ooxml.Package, f *zip.File, rels map[string]string, c *Counts) ([]paraFmt, error) {
	rc, err := pk.Open(f)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	sc := xmlscan.New(rc)
	var (
		w        string // the WordprocessingML prefix
		out      []paraFmt
		stack    []int // open paragraphs, as indexes into out
		depth    int   // table nesting
		inT      bool
		inInstr  bool
		instr    strings.Builder
		rprDepth int // >0 while inside a run's w:rPr
		props    runProps
	)
	name := func(t xmlscan.Token) string {
		if string(xmlscan.Prefix(t.Name)) != w {
			return ""
		}
		return string(xmlscan.Local(t.Name))
	}
	for {
		t, err := sc.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t.Kind {
		case xmlscan.Start, xmlscan.Empty:
			if w == "" {
				w = prefixOf(t.Raw)
			}
			n := name(t)
			if rprDepth > 0 {
				if rprDepth == 1 { // not the old formatting inside w:rPrChange
					props.add(n, t.Raw)
				}
				if t.Kind == xmlscan.Start {
					rprDepth++
				}
				continue
			}
			switch n {
			case "p":
				c.Paragraphs++
				out = append(out, paraFmt{words: map[string]int{}})
				if t.Kind == xmlscan.Start {
					stack = append(stack, len(out)-1)
				}
			case "r":
				props.reset()
			case "rPr":
				if t.Kind == xmlscan.Start && len(stack) > 0 && !inPPr(sc) {
					rprDepth = 1
				}
			case "t":
				inT = t.Kind == xmlscan.Start
			case "tbl":
				c.Tables++
				depth++
				c.MaxTableDepth = max(c.MaxTableDepth, depth)
			case "tr":
				c.Rows++
			case "tc":
				c.Cells++
			case "hyperlink":
				c.Hyperlinks++
				if id, ok := xmlscan.AttrValue(t.Raw, "r:id"); ok {
					c.LinkTargets = append(c.LinkTargets, rels[id])
				} else if a, ok := xmlscan.AttrValue(t.Raw, "anchor"); ok {
					c.LinkTargets = append(c.LinkTargets, "#"+a)
				}
			case "fldSimple":
				if v, ok := xmlscan.AttrValue(t.Raw, "instr"); ok {
					fieldLink(c, v)
				}
			case "instrText":
				inInstr = t.Kind == xmlscan.Start
			case "fldChar":
				if v, _ := xmlscan.AttrValue(t.Raw, "fldCharType"); v == "separate" || v == "end" {
					fieldLink(c, instr.String())
					instr.Reset()
				}
			case "drawing", "pict":
				c.Images++
			case "footnote":
				c.Footnotes++
			case "endnote":
				c.Endnotes++
			case "comment":
				c.Comments++
			case "footnoteReference", "endnoteReference", "commentReference":
				c.NoteRefs++
			case "sectPr":
				c.Sections++
			case "txbxContent":
				c.TextBoxes++
			}
		case xmlscan.End:
			if rprDepth > 0 {
				rprDepth--
				continue
			}
			switch name(t) {
			case "p":
				if len(stack) > 0 {
					out[stack[len(stack)-1]].finish()
					stack = stack[:len(stack)-1]
				}
			case "tbl":
				depth--
			case "t":
				inT = false
			case "instrText":
				inInstr = false
			}
		case xmlscan.Text:
			if inInstr {
				s, _ := xmlscan.Unescape(t.Raw)
				instr.WriteString(s)
			}
			if inT && len(stack) > 0 {
				s, _ := xmlscan.Unescape(t.Raw)
				p := &out[stack[len(stack)-1]]
				p.runs = append(p.runs, run{sig: props.sig(s), text: s})
			}
		}
	}
	for i := range out {
		c.FormatSpans += out[i].spans()
	}
	return out, nil
}

// inPPr reports whether the w:rPr just opened is the paragraph mark's
// (inside w:pPr) rather than a run's.
func inPPr(sc *xmlscan.Scanner) bool { return sc.Parent() == "pPr" }

func prefixOf(raw []byte) string {
	for _, a := range xmlscan.Attrs(raw) {
		v := string(a.Value)
		if (v == "http://schemas.openxmlformats.org/wordprocessingml/2006/main" || v == "http://purl.oclc.org/ooxml/wordprocessingml/main") && strings.HasPrefix(string(a.Name), "xmlns:") {
			return string(a.Name)[6:]
		}
	}
	return "w"
}

func isOn(raw []byte) bool {
	v, ok := xmlscan.AttrValue(raw, "val")
	return !ok || (v != "0" && v != "false" && v != "off" && v != "none")
}

func attrs(raw []byte) string {
	var b strings.Builder
	for _, a := range xmlscan.Attrs(raw) {
		b.WriteString(" " + string(xmlscan.Local(a.Name)) + "=" + string(a.Value))
	}
	return "<" + b.String() + ">"
}

// fieldLink counts a HYPERLINK field as a hyperlink with its target.
func fieldLink(c *Counts, instr string) {
	f := strings.Fields(instr)
	if len(f) < 2 || !strings.EqualFold(f[0], "HYPERLINK") {
		return
	}
	c.Hyperlinks++
	target := ""
	for i := 1; i < len(f); i++ {
		if strings.HasPrefix(f[i], `\`) {
			i++ // a switch and its argument
			continue
		}
		target = strings.Trim(f[i], `"`)
		break
	}
	c.LinkTargets = append(c.LinkTargets, target)
}

// finish sums words per formatting signature. Plain text (the empty
// signature) is no formatting span: only formatting can be lost.
func (p *paraFmt) finish() {
	var sb strings.Builder
	for _, r := range p.runs {
		p.words[r.sig] += len(strings.Fields(r.text))
		sb.WriteString(r.text)
	}
	p.text = sb.String()
}

// spans counts maximal stretches of non-dominant formatting.
func (p *paraFmt) spans() int {
	chars := map[string]int{}
	for _, r := range p.runs {
		chars[r.sig] += len(strings.TrimSpace(r.text))
	}
	base, bw := "", -1
	for s, n := range chars {
		if n > bw || (n == bw && s < base) {
			base, bw = s, n
		}
	}
	n, prev := 0, base
	for _, r := range p.runs {
		if strings.TrimSpace(r.text) == "" {
			continue
		}
		if r.sig != base && r.sig != prev {
			n++
		}
		prev = r.sig
	}
	return n
}
