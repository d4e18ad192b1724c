package docx

import (
	"strings"

	"github.com/dragoman-translate/dragoman/adapters/ooxml"
	"github.com/dragoman-translate/dragoman/core/segment"
)

// atom is one leaf of a flattened paragraph: a piece of text with the run
// properties it had, or an isolated item (tab, note reference, drawing, …).
type atom struct {
	text  string
	iso   bool
	item  *node
	inRun bool  // item sat inside a run: rewrap it in a run with rpr
	rpr   *node // the run's properties (nil: none)
	key   string
	wraps []*node // wrapper elements around it, outermost first
}

// code is what one inline code id stands for in one paragraph.
type code struct {
	kind  segment.CodeKind
	typ   string
	wrap  *node // paired wrapper (hyperlink, ins, sdt, …)
	fmt   bool  // a formatting span with properties rpr (nil: none)
	rpr   *node
	items []atom // isolated: the items it stands for
}

// para is a paragraph seen through the segment model.
type para struct {
	d              *dialect
	n              *node
	id             int // its number in the part, in document order
	pPr            *node
	prefix, suffix []atom // isolated items at the edges, kept out of the text
	codes          []code // id = index+1
	base           map[*node]*node
	tagged         string
	hasText        bool
}

// fieldState follows complex fields (w:fldChar) across the paragraphs of a
// part: text between "begin" and "separate" is the instruction.
type fieldState struct {
	stack  []fieldFrame // per open field
	hasTOC bool
	keys   map[*node]string
}

// fieldFrame is an open complex field: its instruction so far, whether it
// is still being read, and whether its result is computed (fields.go).
type fieldFrame struct {
	instr    string
	inInstr  bool
	computed bool
}

func (f *fieldState) top() *fieldFrame {
	if len(f.stack) == 0 {
		return nil
	}
	return &f.stack[len(f.stack)-1]
}

// inInstr: the text read now is a field's instruction, or the result of a
// field Word computes; neither is translated.
func (f *fieldState) inInstr() bool {
	t := f.top()
	return t != nil && (t.inInstr || t.computed)
}

type flattener struct {
	d     *dialect
	f     *fieldState
	atoms []atom
}

// flatten reads a paragraph into atoms and builds its tagged text.
func flatten(d *dialect, f *fieldState, p *node) *para {
	fl := &flattener{d: d, f: f}
	pa := &para{d: d, n: p}
	for _, k := range p.Children {
		if d.is(k, "pPr") {
			pa.pPr = k
			continue
		}
		fl.content(k, nil)
	}
	pa.build(mergeText(fl.atoms))
	return pa
}

// content handles one child of a paragraph or of a wrapper.
func (fl *flattener) content(k *node, wraps []*node) {
	d := fl.d
	if k.Kind != ooxml.ElemNode {
		return // whitespace and comments between runs
	}
	switch {
	case d.dropped(k):
		return
	case d.is(k, "r") && rubyOf(d, k) != nil:
		if fl.ruby(k, wraps) {
			return
		}
		fl.run(k, wraps) // a ruby without base text stays as it was
		return
	case d.is(k, "r"):
		fl.run(k, wraps)
		return
	case d.word && d.is(k, "fldSimple"):
		instr := k.AttrOr("instr", "")
		if isTOC(instr) {
			fl.f.hasTOC = true
		}
		if computedField(instr) { // its result stays as it is: one isolated code
			fl.atoms = append(fl.atoms, atom{iso: true, item: k, wraps: wraps})
			return
		}
	}
	if d.wrapper(k) != "" && len(k.Children) > 0 {
		n := len(fl.atoms)
		w := append(append([]*node(nil), wraps...), k)
		for _, c := range wrapperContent(d, k) {
			fl.content(c, w)
		}
		if len(fl.atoms) > n {
			return
		}
		// an empty wrapper stays as it was
	}
	fl.atoms = append(fl.atoms, atom{iso: true, item: k, wraps: wraps})
}

// wrapperContent is what a wrapper wraps: its children except its
// properties (for w:sdt, the children of w:sdtContent).
func wrapperContent(d *dialect, w *node) []*node {
	var out []*node
	sdt := d.is(w, "sdt")
	for _, k := range w.Children {
		if k.Kind != ooxml.ElemNode {
			continue
		}
		if sdt {
			if d.is(k, "sdtContent") {
				out = append(out, k.Children...)
			}
			continue
		}
		if isProps(k.Local) {
			continue
		}
		out = append(out, k)
	}
	return out
}

func isProps(local string) bool {
	return strings.HasSuffix(local, "Pr") || local == "fldData"
}

func isTOC(instr string) bool {
	f := strings.Fields(instr)
	return len(f) > 0 && strings.EqualFold(f[0], "TOC")
}

// run splits a run into text atoms and isolated items.
func (fl *flattener) run(r *node, wraps []*node) {
	d := fl.d
	var rpr *node
	hidden := false
	for _, k := range r.Children {
		if d.is(k, "rPr") {
			rpr = k
			hidden = d.word && hasOn(k, "vanish")
		}
	}
	key := ""
	if rpr != nil {
		key = fl.key(rpr)
	}
	for _, k := range r.Children {
		if k.Kind != ooxml.ElemNode || k == rpr || d.dropped(k) {
			continue
		}
		if d.is(k, "t") && !hidden && !fl.f.inInstr() {
			if txt := k.TextOf(); txt != "" {
				fl.atoms = append(fl.atoms, atom{text: txt, rpr: rpr, key: key, wraps: wraps})
			}
			continue
		}
		if d.word {
			fl.field(k)
		}
		fl.atoms = append(fl.atoms, atom{iso: true, item: k, inRun: true, rpr: rpr, key: key, wraps: wraps})
	}
}

// field tracks w:fldChar and w:instrText.
func (fl *flattener) field(k *node) {
	d := fl.d
	switch {
	case d.is(k, "fldChar"):
		switch k.AttrOr("fldCharType", "") {
		case "begin":
			fl.f.stack = append(fl.f.stack, fieldFrame{inInstr: true})
		case "separate":
			if t := fl.f.top(); t != nil {
				t.inInstr = false
				t.computed = computedField(t.instr)
			}
		case "end":
			if n := len(fl.f.stack); n > 0 {
				fl.f.stack = fl.f.stack[:n-1]
			}
		}
	case d.is(k, "instrText"):
		if t := fl.f.top(); t != nil && t.inInstr {
			t.instr += k.TextOf()
			if isTOC(t.instr) {
				fl.f.hasTOC = true
			}
		} else if isTOC(k.TextOf()) {
			fl.f.hasTOC = true
		}
	}
}

// hasOn reports whether props has a child toggle (e.g. w:vanish) that is on.
func hasOn(props *node, local string) bool {
	for _, k := range props.Children {
		if k.Kind == ooxml.ElemNode && k.Local == local {
			return ooxml.On(k)
		}
	}
	return false
}

// key is the comparison key of run properties: what makes two runs look
// different, without the noise (revision ids, proofing language and state).
func (fl *flattener) key(rpr *node) string {
	if k, ok := fl.f.keys[rpr]; ok {
		return k
	}
	k := canonical(rpr)
	if fl.f.keys == nil {
		fl.f.keys = map[*node]string{}
	}
	fl.f.keys[rpr] = k
	return k
}

// noise that does not change how a run looks.
func noiseAttr(local string) bool {
	switch local {
	case "lang", "altLang", "dirty", "err", "smtClean", "smtId", "noProof":
		return true
	}
	return strings.HasPrefix(local, "rsid")
}

func noiseElem(local string) bool { return local == "lang" || local == "noProof" }

// canonical is a comparison key for run properties without the noise.
func canonical(n *node) string {
	var sb strings.Builder
	var walk func(n *node)
	walk = func(n *node) {
		if n.Kind != ooxml.ElemNode || noiseElem(n.Local) {
			return
		}
		sb.WriteByte('<')
		sb.WriteString(n.Local)
		for _, a := range n.Attrs {
			if a.Name.Space == "xmlns" || a.Name.Space == "" && a.Name.Local == "xmlns" || noiseAttr(a.Name.Local) {
				continue
			}
			sb.WriteByte(' ')
			sb.WriteString(a.Name.Local)
			sb.WriteByte('=')
			sb.WriteString(a.Value)
		}
		sb.WriteByte('>')
		for _, k := range n.Children {
			walk(k)
		}
		sb.WriteByte('/')
	}
	for _, k := range n.Children {
		walk(k)
	}
	return sb.String()
}

// mergeText joins adjacent text atoms that look the same, so invisible
// differences (revision ids, proofing marks) do not split sentences.
func mergeText(in []atom) []atom {
	out := in[:0]
	for _, a := range in {
		if n := len(out); n > 0 && !a.iso && !out[n-1].iso && a.key == out[n-1].key && sameWraps(a.wraps, out[n-1].wraps) {
			out[n-1].text += a.text
			continue
		}
		out = append(out, a)
	}
	return out
}

func sameWraps(a, b []*node) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func container(w []*node) *node {
	if len(w) == 0 {
		return nil
	}
	return w[len(w)-1]
}
