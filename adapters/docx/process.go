package docx

import (
	"fmt"
	"path"
	"strings"

	"github.com/dragoman-translate/dragoman/adapters/ooxml"
	"github.com/dragoman-translate/dragoman/core/segment"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// proc reads or renders one part, block by block. The read and the render
// share it, so both see the same paragraphs, in the same order, with the
// same ids and codes.
type proc struct {
	part string
	kind ooxml.Kind
	d    *dialect
	f    fieldState
	np   int // paragraphs numbered so far
	nd   int // drawing descriptions numbered so far

	cacheID map[string]string // charts: the unit id of each cached string

	exactRows map[*node]bool // table rows of exact height, by their w:tr

	// read
	units []segment.Unit
	emit  func([]segment.Unit) error
	ids   map[*node]string // the unit of each paragraph of the last block read

	// render (nil while reading)
	r *render
}

func newProc(part string, kind ooxml.Kind) *proc {
	p := &proc{part: part, kind: kind, d: wordML}
	if kind == ooxml.Drawing || kind == ooxml.DiagramDrawing {
		p.d = drawingML
	}
	return p
}

// wanted are the elements of a part other than a story that the engine
// takes whole (the blocks of its stream): paragraphs, a chart's string
// caches, the document properties; everything else is a container.
func (p *proc) wanted(n *node) bool {
	switch p.kind {
	case ooxml.CoreProp:
		return isProperty(n)
	case ooxml.Drawing, ooxml.DiagramDrawing:
		return p.d.is(n, "p") || isCache(n)
	}
	return false
}

func isProperty(n *node) bool {
	return n.Is("title", nsDC) || n.Is("subject", nsDC) || n.Is("description", nsDC)
}

// block handles one block of the part.
func (p *proc) block(t *node) error {
	clear(p.f.keys)                            // the run properties seen are the last block's: hold none of them
	if p.d.is(t, "trPr") && exactRow(p.d, t) { // streamed before the row's cells
		if p.exactRows == nil {
			p.exactRows = map[*node]bool{}
		}
		p.exactRows[t.Parent] = true
	}
	switch {
	case p.kind == ooxml.CoreProp:
		if isProperty(t) {
			p.property(t)
		}
		return p.tell()
	case isCache(t):
		p.cache(t)
		return p.tell()
	}
	// Number paragraphs and drawing descriptions in document order, then
	// read every paragraph before rewriting any (field state follows order).
	var order []*node
	var descrs []*node
	descr := map[*node]int{}
	alias := map[*node]*node{}
	var walk func(n *node)
	walk = func(n *node) {
		switch {
		case p.d.is(n, "p"):
			order = append(order, n)
		case isDocPr(n):
			descr[n] = p.nd
			p.nd++
			descrs = append(descrs, n)
		}
		for _, k := range n.Children {
			if k.Kind == ooxml.ElemNode {
				walk(k)
			}
		}
		if n.Is("AlternateContent", nsMC) {
			pairAlternate(p.d, n, alias)
		}
	}
	walk(t)
	paras := make([]*para, len(order))
	byNode := make(map[*node]*para, len(order))
	for i, n := range order {
		pa := flatten(p.d, &p.f, n)
		pa.id = p.np
		p.np++
		paras[i] = pa
		byNode[n] = pa
	}
	aliasOf := func(pa *para) *para {
		a := byNode[alias[pa.n]]
		if a == nil || a.tagged != pa.tagged {
			return nil
		}
		return a
	}
	if p.r == nil {
		for _, n := range descrs {
			p.extractDescr(n, descr[n])
		}
		clear(p.ids)
		for _, pa := range paras {
			if !pa.hasText || p.kind == ooxml.DiagramDrawing {
				continue
			}
			if a := aliasOf(pa); a != nil {
				p.mark(pa.n, p.paraID(a.id))
				continue
			}
			p.units = append(p.units, p.unit(pa))
			p.mark(pa.n, p.paraID(pa.id))
		}
		return p.tell()
	}
	for _, n := range descrs {
		if u := p.r.unit(p.descrID(descr[n])); u != nil {
			n.SetAttr("descr", p.plainTarget(u))
		}
	}
	for _, pa := range paras {
		if !pa.hasText {
			continue
		}
		var u *segment.Unit
		switch a := aliasOf(pa); {
		case p.kind == ooxml.DiagramDrawing:
			u = p.r.diagramUnit(pa.tagged)
		case a != nil:
			u = p.r.unit(p.paraID(a.id))
		default:
			u = p.r.unit(p.paraID(pa.id))
		}
		if u != nil {
			p.assemble(pa, u)
		}
	}
	return nil
}

// pairAlternate links the paragraphs of a text box's VML fallback to the
// same paragraphs of its DrawingML choice, so they are translated once and
// stay consistent.
func pairAlternate(d *dialect, alt *node, alias map[*node]*node) {
	var choice, fallback []*node
	for _, k := range alt.Children {
		switch {
		case k.Is("Choice", nsMC) && choice == nil:
			choice = paragraphsIn(d, k, nil)
		case k.Is("Fallback", nsMC):
			fallback = paragraphsIn(d, k, nil)
		}
	}
	if len(choice) != len(fallback) {
		return
	}
	for i := range fallback {
		alias[fallback[i]] = choice[i]
	}
}

func paragraphsIn(d *dialect, n *node, out []*node) []*node {
	if d.is(n, "p") {
		out = append(out, n)
	}
	for _, k := range n.Children {
		if k.Kind == ooxml.ElemNode {
			out = paragraphsIn(d, k, out)
		}
	}
	return out
}

// mark notes the unit of a paragraph read (unitOf).
func (p *proc) mark(n *node, id string) {
	if p.ids == nil {
		p.ids = map[*node]string{}
	}
	p.ids[n] = id
}

// unitOf is the unit a paragraph of the last block read is translated
// with, "" if none.
func (p *proc) unitOf(n *node) string { return p.ids[n] }

func (p *proc) paraID(n int) string  { return fmt.Sprintf("%s#p%d", p.part, n) }
func (p *proc) descrID(n int) string { return fmt.Sprintf("%s#d%d", p.part, n) }

// unit turns a paragraph into a translation unit split into sentences.
func (p *proc) unit(pa *para) segment.Unit {
	id := p.paraID(pa.id)
	u := segment.Unit{ID: id, Part: p.part, Codes: make([]segment.Code, len(pa.codes))}
	u.Where, u.Fixed = p.place(pa.n)
	for i, c := range pa.codes {
		u.Codes[i] = segment.Code{ID: i + 1, Kind: c.kind, Type: c.typ}
	}
	for i, s := range segment.SplitSentences(pa.tagged) {
		u.Segments = append(u.Segments, segment.Segment{ID: fmt.Sprintf("%s:%d", id, i), Source: s})
	}
	return u
}

// tell hands the units read since the last call to emit, which may stop
// the read (a document over a cap); handed over, they are not kept.
func (p *proc) tell() error {
	if p.emit == nil || len(p.units) == 0 {
		return nil
	}
	err := p.emit(p.units)
	p.units = p.units[:0]
	return err
}

// extractDescr makes a unit of an image's alt text.
func (p *proc) extractDescr(n *node, k int) {
	v, ok := n.Attr("descr")
	if !ok || strings.TrimSpace(v) == "" || looksLikeFileName(v) {
		return
	}
	id := p.descrID(k)
	p.units = append(p.units, segment.Unit{ID: id, Part: p.part, Where: "image description", Segments: []segment.Segment{{ID: id + ":0", Source: tagged.Escape(v)}}})
}

// property handles a docProps/core.xml element (title, subject, description).
func (p *proc) property(t *node) {
	id := p.part + "#" + t.Local
	if p.r == nil {
		if v := t.TextOf(); strings.TrimSpace(v) != "" {
			p.units = append(p.units, segment.Unit{ID: id, Part: p.part, Where: storyOf(p.part), Segments: []segment.Segment{{ID: id + ":0", Source: tagged.Escape(v)}}})
		}
		return
	}
	if u := p.r.unit(id); u != nil {
		t.SetText(p.plainTarget(u))
	}
}

// plainTarget is a code-free unit's translation as plain text.
func (p *proc) plainTarget(u *segment.Unit) string {
	var sb strings.Builder
	for _, s := range u.Segments {
		t := s.Target
		if t == "" {
			t = s.Source
			p.r.untranslated++
		}
		sb.WriteString(tagged.Plain(t))
	}
	return sb.String()
}

// looksLikeFileName spots alt texts that are only a picture's file name or
// path, which Word fills in by default and which are not prose.
func looksLikeFileName(v string) bool {
	v = strings.TrimSpace(v)
	if strings.ContainsAny(v, "\\/") && !strings.Contains(v, " ") {
		return true
	}
	if strings.Contains(v, ":\\") {
		return true
	}
	ext := path.Ext(v)
	return !strings.Contains(v, " ") && len(ext) >= 3 && len(ext) <= 5
}
