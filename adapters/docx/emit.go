package docx

import (
	"encoding/xml"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dragoman-translate/dragoman/adapters/ooxml"
	"github.com/dragoman-translate/dragoman/core/segment"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// assemble rewrites a paragraph with its translation: its properties, the
// isolated items at its edges, then the target's text as runs with the
// formatting its codes stand for, wrappers and isolated items back where
// the codes are. A unit that no longer matches the paragraph leaves it as
// it was.
func (p *proc) assemble(pa *para, u *segment.Unit) {
	var src strings.Builder
	for _, s := range u.Segments {
		src.WriteString(s.Source)
	}
	if src.String() != pa.tagged {
		p.r.mismatched++
		return
	}
	var tgt strings.Builder
	for _, s := range u.Segments {
		t := s.Target
		if t == "" {
			t = s.Source
			p.r.untranslated++
		}
		fixed, w := tagged.Repair(s.Source, t)
		if len(w) > 0 {
			p.r.repaired++
		}
		tgt.WriteString(keepEdgeSpace(s.Source, fixed))
	}

	n := pa.n
	e := emitter{p: p, para: n, out: n}
	old := n.Children
	n.Children = make([]*node, 0, len(old))
	if pa.pPr != nil {
		e.add(pa.pPr)
	}
	for _, a := range pa.prefix {
		e.atom(a)
	}
	toks := tagged.Tokenize(tgt.String())
	if p.restoreFieldOrder(pa, toks) {
		p.r.reordered++
	}
	var stack []int
	for _, t := range toks {
		switch t.Kind {
		case tagged.Text:
			e.text(p.rprFor(pa, stack), t.Text)
		case tagged.Open:
			if c := pa.codes[t.ID-1]; c.wrap != nil {
				e.open(c.wrap)
			}
			stack = append(stack, t.ID)
		case tagged.Close:
			c := pa.codes[stack[len(stack)-1]-1]
			stack = stack[:len(stack)-1]
			if c.wrap != nil {
				e.close()
			}
		case tagged.Place:
			for _, a := range pa.codes[t.ID-1].items {
				e.atom(a)
			}
		}
	}
	for e.depth() > 0 { // Repair closes every code; a wrapper left open is closed here
		e.close()
	}
	for _, a := range pa.suffix {
		e.atom(a)
	}
}

// emitter builds a paragraph's new children: out is where nodes go, under
// the wrappers opened so far.
type emitter struct {
	p     *proc
	para  *node // the paragraph: its prefix names the new runs
	out   *node
	opens []*node // the parents of out, innermost last
}

func (e *emitter) depth() int { return len(e.opens) }

func (e *emitter) add(n *node) {
	n.Parent = e.out
	e.out.Children = append(e.out.Children, n)
}

// elem is a new element named like the paragraph vocabulary's, of like's prefix.
func elem(like *node, local string) *node {
	return &node{Kind: ooxml.ElemNode, Prefix: like.Prefix, NS: like.NS, Local: local}
}

// run is a new run, with a copy of rpr.
func (e *emitter) run(rpr *node) *node {
	r := elem(e.para, "r")
	if rpr != nil {
		c := rpr.Clone()
		c.Parent = r
		r.Children = append(r.Children, c)
	}
	return r
}

func (e *emitter) text(rpr *node, text string) {
	if text == "" {
		return
	}
	r := e.run(rpr)
	t := elem(r, "t")
	if e.p.d.word {
		t.Attrs = []xml.Attr{{Name: xml.Name{Space: "xml", Local: "space"}, Value: "preserve"}}
	}
	t.Parent = r
	t.SetText(text)
	r.Children = append(r.Children, t)
	e.add(r)
}

func (e *emitter) atom(a atom) {
	if !a.inRun {
		e.add(a.item)
		return
	}
	r := e.run(a.rpr)
	a.item.Parent = r
	r.Children = append(r.Children, a.item)
	e.add(r)
}

// open starts a copy of wrapper w (its start tag and properties); what
// follows goes inside it (for w:sdt, inside its w:sdtContent; for a ruby
// run, inside its w:rubyBase).
func (e *emitter) open(w *node) {
	top, inner := wrapperCopy(e.p.d, w)
	e.add(top)
	e.opens = append(e.opens, e.out)
	e.out = inner
}

func (e *emitter) close() {
	e.out = e.opens[len(e.opens)-1]
	e.opens = e.opens[:len(e.opens)-1]
}

// wrapperCopy copies a wrapper without its content: top is the copy,
// inner the element the content goes into.
func wrapperCopy(d *dialect, w *node) (top, inner *node) {
	if d.is(w, "r") {
		return rubyCopy(d, w)
	}
	top = shallow(w)
	inner = top
	for _, k := range w.Children {
		if k.Kind != ooxml.ElemNode {
			continue
		}
		switch {
		case d.is(w, "sdt") && d.is(k, "sdtContent"):
			inner = shallow(k)
			adopt(top, inner)
		case d.is(w, "sdt") || isProps(k.Local):
			adopt(top, k.Clone()) // a wrapper may be opened twice (a span across sentences)
		}
	}
	return top, inner
}

// shallow copies an element without its children.
func shallow(n *node) *node {
	return &node{Kind: n.Kind, Prefix: n.Prefix, Local: n.Local, NS: n.NS, Attrs: n.Attrs}
}

func adopt(parent, child *node) {
	child.Parent = parent
	parent.Children = append(parent.Children, child)
}

// restoreFieldOrder puts the isolated codes holding complex-field
// characters (w:fldChar begin, separate, end) back in their source order,
// at the positions the engine gave them: a reordered sentence may carry a
// field's end before its begin, and no word processor opens that. Code ids
// grow in source order, so sorting them restores it. Reports a change.
func (p *proc) restoreFieldOrder(pa *para, toks []tagged.Token) bool {
	var at, ids []int
	for i, t := range toks {
		if t.Kind == tagged.Place && t.ID >= 1 && t.ID <= len(pa.codes) && p.holdsFieldChar(pa.codes[t.ID-1]) {
			at, ids = append(at, i), append(ids, t.ID)
		}
	}
	if slices.IsSorted(ids) {
		return false
	}
	slices.Sort(ids)
	for k, i := range at {
		toks[i].ID = ids[k]
	}
	return true
}

func (p *proc) holdsFieldChar(c code) bool {
	for _, a := range c.items {
		if a.item != nil && p.d.is(a.item, "fldChar") {
			return true
		}
	}
	return false
}

// rprFor is the run formatting for text under the open codes: the
// innermost span's, else the base formatting of the innermost wrapper.
func (p *proc) rprFor(pa *para, stack []int) *node {
	for i := len(stack) - 1; i >= 0; i-- {
		c := pa.codes[stack[i]-1]
		if c.fmt {
			return c.rpr
		}
		if c.wrap != nil {
			if r, ok := pa.base[c.wrap]; ok {
				return r
			}
		}
	}
	return pa.base[nil]
}

// keepEdgeSpace gives the target the leading and trailing spaces of its
// source, which engines tend to trim and sentences need to join.
func keepEdgeSpace(src, tgt string) string {
	sl, st := edgeSpace(src)
	tl, tt := edgeSpace(tgt)
	if sl != "" && tl == "" {
		tgt = sl + tgt
	}
	if st != "" && tt == "" {
		tgt += st
	}
	return tgt
}

// edgeSpace is the white space that begins and ends the text of tagged
// text, looking past tags at either end.
func edgeSpace(s string) (lead, trail string) {
	i := 0
	for i < len(s) && s[i] == '<' {
		j := strings.IndexByte(s[i:], '>')
		if j < 0 {
			break
		}
		i += j + 1
	}
	k := i
	for k < len(s) {
		r, n := utf8.DecodeRuneInString(s[k:])
		if !unicode.IsSpace(r) {
			break
		}
		k += n
	}
	lead = s[i:k]
	e := len(s)
	for e > 0 && s[e-1] == '>' {
		j := strings.LastIndexByte(s[:e], '<')
		if j < 0 {
			break
		}
		e = j
	}
	b := e
	for b > k {
		r, n := utf8.DecodeLastRuneInString(s[:b])
		if !unicode.IsSpace(r) {
			break
		}
		b -= n
	}
	return lead, s[b:e]
}
