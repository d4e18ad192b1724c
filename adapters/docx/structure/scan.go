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

// Para is one paragraph's formatted text: words per formatting signature.
type Para struct {
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

// Scan counts the structure of one story part, block by block as the
// part is streamed (ooxml.StreamStory): Open with each container, Block
// with each block.
type Scan struct {
	c       *Counts
	formats bool // measure formatting: Block returns the paragraphs' (and counts spans)
	rels    map[string]string
	inInstr bool
	instr   strings.Builder
	props   runProps
}

// NewScan scans a part whose relationships are rels into c; with formats
// it measures formatting too (Block's paragraphs, c.FormatSpans).
func NewScan(c *Counts, rels map[string]string, formats bool) *Scan {
	return &Scan{c: c, rels: rels, formats: formats}
}

// PartScan is NewScan for story part name of pk, with its relationships.
func PartScan(pk *ooxml.Package, name string, c *Counts, formats bool) (*Scan, error) {
	rels, err := readRels(pk, pk.File(relsOf(name)))
	if err != nil {
		return nil, err
	}
	return NewScan(c, rels, formats), nil
}

func relsOf(name string) string {
	i := strings.LastIndexByte(name, '/')
	return name[:i+1] + "_rels/" + name[i+1:] + ".rels"
}

// Open counts a container as it opens; tables are the streamed tables
// holding it (a table itself included).
func (s *Scan) Open(n *ooxml.Node, tables []*ooxml.Table) {
	s.element(n, len(tables))
}

// Block counts a block and returns its paragraphs' formatting, in order.
func (s *Scan) Block(b *ooxml.Block) []*Para {
	var out, stack []*Para
	var walk func(n *ooxml.Node, depth int)
	walk = func(n *ooxml.Node, depth int) {
		if n.Kind == ooxml.TextNode {
			if s.inInstr {
				s.instr.WriteString(n.Text)
			}
			return
		}
		if n.Kind != ooxml.ElemNode {
			return
		}
		w := n.NS == ooxml.NSW || n.NS == ooxml.NSWStrict
		switch {
		case w && n.Local == "tbl":
			depth++
		case w && n.Local == "p" && s.formats:
			p := &Para{words: map[string]int{}}
			out, stack = append(out, p), append(stack, p)
		case w && n.Local == "r":
			s.props.reset()
		case w && n.Local == "rPr" && !s.formats:
			return
		case w && n.Local == "rPr" && len(stack) > 0 && !n.Parent.IsW("pPr"):
			for _, k := range n.Children {
				if k.Kind == ooxml.ElemNode && (k.NS == ooxml.NSW || k.NS == ooxml.NSWStrict) {
					s.props.add(k)
				}
			}
			return
		case w && n.Local == "t" && len(stack) > 0:
			text := n.TextOf()
			p := stack[len(stack)-1]
			p.runs = append(p.runs, run{sig: s.props.sig(text), text: text})
		}
		if w {
			s.element(n, depth)
		}
		if w && n.Local == "instrText" {
			s.inInstr = true
		}
		for _, k := range n.Children {
			walk(k, depth)
		}
		if w {
			switch n.Local {
			case "p":
				if !s.formats {
					break
				}
				stack[len(stack)-1].finish()
				stack = stack[:len(stack)-1]
			case "instrText":
				s.inInstr = false
			}
		}
	}
	walk(b.N, len(b.Tables))
	for _, p := range out {
		s.c.FormatSpans += p.spans()
	}
	return out
}

// element counts a WordprocessingML element (a block's or a container)
// that depth tables hold (itself included, for a table).
func (s *Scan) element(n *ooxml.Node, depth int) {
	c := s.c
	switch n.Local {
	case "p":
		c.Paragraphs++
	case "tbl":
		c.Tables++
		c.MaxTableDepth = max(c.MaxTableDepth, depth)
	case "tr":
		c.Rows++
	case "tc":
		c.Cells++
	case "hyperlink":
		c.Hyperlinks++
		if id, ok := n.Attr("id"); ok && hasRelID(n) {
			c.LinkTargets = append(c.LinkTargets, s.rels[id])
		} else if a, ok := n.Attr("anchor"); ok {
			c.LinkTargets = append(c.LinkTargets, "#"+a)
		}
	case "fldSimple":
		if v, ok := n.Attr("instr"); ok {
			fieldLink(c, v)
		}
	case "fldChar":
		if v := n.AttrOr("fldCharType", ""); v == "separate" || v == "end" {
			fieldLink(c, s.instr.String())
			s.instr.Reset()
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
}

// hasRelID: the hyperlink's id attribute is the relationships' r:id.
func hasRelID(n *ooxml.Node) bool {
	for _, a := range n.Attrs {
		if a.Name.Local == "id" && a.Name.Space != "" && a.Name.Space != "xmlns" {
			return true
		}
	}
	return false
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
func (p *Para) finish() {
	var sb strings.Builder
	for _, r := range p.runs {
		p.words[r.sig] += len(strings.Fields(r.text))
		sb.WriteString(r.text)
	}
	p.text = sb.String()
}

// spans counts maximal stretches of non-dominant formatting.
func (p *Para) spans() int {
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
