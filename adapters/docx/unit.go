package docx

import (
	"strings"

	"github.com/dragoman-translate/dragoman/adapters/ooxml/xmlscan"
	"github.com/dragoman-translate/dragoman/core/segment"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
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
	keys   *keyCache
}

// fieldFrame is an open complex field: its instruction so far, whether it
// is still being read, and whether its result is computed (fields.go).
type fieldFrame struct {
	instr    strings.Builder
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

// keyCache maps raw run properties to their canonical key: documents
// repeat the same few dozen property sets thousands of times.
type keyCache struct {
	m   map[string]string
	buf []byte
}

func (fl *flattener) key(rpr *node) string {
	c := fl.f.keys
	if c.m == nil {
		c.m = map[string]string{}
	}
	c.buf = writeRaw(c.buf[:0], rpr)
	if k, ok := c.m[string(c.buf)]; ok {
		return k
	}
	k := canonical(rpr)
	if len(c.m) < 10000 {
		c.m[string(c.buf)] = k
	}
	return k
}

// flatten reads a paragraph into atoms and builds its tagged text.
func flatten(d *dialect, f *fieldState, p *node) *para {
	fl := &flattener{d: d, f: f}
	pa := &para{d: d, n: p}
	for _, k := range p.kids {
		if k.name == d.pPr {
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
	if !k.isElem() {
		return // whitespace and comments between runs
	}
	switch {
	case d.drop[k.name]:
		return
	case k.name == d.r && rubyOf(d, k) != nil:
		if fl.ruby(k, wraps) {
			return
		}
		fl.run(k, wraps) // a ruby without base text stays as it was
		return
	case k.name == d.r:
		fl.run(k, wraps)
		return
	case k.name == d.fldSimple && d.word:
		instr, _ := xmlscan.AttrValue(k.start, "instr")
		if isTOC(instr) {
			fl.f.hasTOC = true
		}
		if computedField(instr) { // its result stays as it is: one isolated code
			fl.atoms = append(fl.atoms, atom{iso: true, item: k, wraps: wraps})
			return
		}
	}
	if _, ok := d.wrappers[k.name]; ok && k.kind == xmlscan.Start {
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
	for _, k := range w.kids {
		if !k.isElem() {
			continue
		}
		if w.name == d.sdt {
			if k.name == d.sdtContent {
				out = append(out, k.kids...)
			}
			continue
		}
		if isProps(k.name) {
			continue
		}
		out = append(out, k)
	}
	return out
}

// wrapperOpen and wrapperClose are the raw markup around a wrapper's content.
func wrapperOpen(d *dialect, w *node) []byte {
	if w.name == d.r {
		return rubyOpen(d, w)
	}
	b := append([]byte(nil), w.start...)
	for _, k := range w.kids {
		if !k.isElem() {
			continue
		}
		if w.name == d.sdt {
			if k.name == d.sdtContent {
				b = append(b, k.start...)
			} else {
				b = writeRaw(b, k)
			}
			continue
		}
		if isProps(k.name) {
			b = writeRaw(b, k)
		}
	}
	return b
}

func wrapperClose(d *dialect, w *node) []byte {
	if w.name == d.r {
		return rubyClose(d, w)
	}
	var b []byte
	if w.name == d.sdt {
		for _, k := range w.kids {
			if k.name == d.sdtContent {
				b = append(b, k.end...)
			}
		}
	}
	return append(b, w.end...)
}

func isProps(name string) bool {
	l := name
	if i := strings.IndexByte(l, ':'); i >= 0 {
		l = l[i+1:]
	}
	return strings.HasSuffix(l, "Pr") || l == "fldData"
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
	for _, k := range r.kids {
		if k.name == d.rPr {
			rpr = k
			hidden = d.word && hasOn(k, d.vanish)
		}
	}
	key := ""
	if rpr != nil {
		key = fl.key(rpr)
	}
	for _, k := range r.kids {
		if !k.isElem() || k.name == d.rPr || d.drop[k.name] {
			continue
		}
		if k.name == d.t && !hidden && !fl.f.inInstr() {
			txt := textOf(k)
			if txt != "" {
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
	switch k.name {
	case d.fldChar:
		typ, _ := xmlscan.AttrValue(k.start, "fldCharType")
		switch typ {
		case "begin":
			fl.f.stack = append(fl.f.stack, fieldFrame{inInstr: true})
		case "separate":
			if t := fl.f.top(); t != nil {
				t.inInstr = false
				t.computed = computedField(t.instr.String())
			}
		case "end":
			if n := len(fl.f.stack); n > 0 {
				fl.f.stack = fl.f.stack[:n-1]
			}
		}
	case d.instrText:
		if t := fl.f.top(); t != nil && t.inInstr {
			t.instr.WriteString(textOf(k))
			if isTOC(t.instr.String()) {
				fl.f.hasTOC = true
			}
		} else if isTOC(textOf(k)) {
			fl.f.hasTOC = true
		}
	}
}

// hasOn reports whether props has a child toggle (e.g. w:vanish) that is on.
func hasOn(props *node, name string) bool {
	for _, k := range props.kids {
		if k.name == name {
			v, ok := xmlscan.AttrValue(k.start, "val")
			return !ok || (v != "0" && v != "false" && v != "off")
		}
	}
	return false
}

// textOf is the decoded character data of an element.
func textOf(n *node) string {
	var sb strings.Builder
	for _, k := range n.kids {
		switch k.kind {
		case xmlscan.Text:
			s, err := xmlscan.Unescape(k.start)
			if err != nil {
				s = string(k.start)
			}
			sb.WriteString(s)
		case xmlscan.CData:
			sb.Write(k.start[9 : len(k.start)-3])
		}
	}
	return sb.String()
}

// noise that does not change how a run looks: revision ids, proofing
// language and state.
var noiseAttr = map[string]bool{"lang": true, "altLang": true, "dirty": true, "err": true, "smtClean": true, "smtId": true, "noProof": true}
var noiseElem = map[string]bool{"lang": true, "noProof": true}

// canonical is a comparison key for run properties without the noise.
func canonical(n *node) string {
	var sb strings.Builder
	var walk func(n *node)
	walk = func(n *node) {
		if !n.isElem() {
			return
		}
		local := localName(n.name)
		if noiseElem[local] {
			return
		}
		sb.WriteByte('<')
		sb.WriteString(local)
		for _, a := range xmlscan.Attrs(n.start) {
			l := localName(string(a.Name))
			if noiseAttr[l] || strings.HasPrefix(l, "rsid") {
				continue
			}
			sb.WriteByte(' ')
			sb.WriteString(l)
			sb.WriteByte('=')
			sb.Write(a.Value)
		}
		sb.WriteByte('>')
		for _, k := range n.kids {
			walk(k)
		}
		sb.WriteByte('/')
	}
	for _, k := range n.kids {
		walk(k)
	}
	return sb.String()
}

func localName(s string) string {
	if i := strings.IndexByte(s, ':'); i >= 0 {
		return s[i+1:]
	}
	return s
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

// build turns atoms into tagged text with codes.
func (pa *para) build(atoms []atom) {
	// isolated items at the edges, outside any wrapper, stay fixed
	i, j := 0, len(atoms)
	for i < j && atoms[i].iso && len(atoms[i].wraps) == 0 {
		i++
	}
	for j > i && atoms[j-1].iso && len(atoms[j-1].wraps) == 0 {
		j--
	}
	pa.prefix, pa.suffix = atoms[:i], atoms[j:]
	mid := atoms[i:j]

	// the dominant formatting of each container needs no code
	weight := map[*node]map[string]int{}
	rprOf := map[string]*node{}
	for _, a := range mid {
		if a.iso {
			continue
		}
		if strings.TrimSpace(a.text) != "" {
			pa.hasText = true
		}
		c := container(a.wraps)
		if weight[c] == nil {
			weight[c] = map[string]int{}
		}
		weight[c][a.key] += len(a.text)
		if _, ok := rprOf[a.key]; !ok {
			rprOf[a.key] = a.rpr
		}
	}
	pa.base = map[*node]*node{}
	baseKey := map[*node]string{}
	for c, m := range weight {
		best, bw := "", -1
		for k, w := range m {
			if w > bw || (w == bw && k < best) {
				best, bw = k, w
			}
		}
		baseKey[c] = best
		pa.base[c] = rprOf[best]
	}

	type open struct {
		id   int
		wrap *node // nil for a formatting span
		key  string
	}
	var b tagged.Builder
	var stack []open
	lastIso := -1 // id of an isolated code that may absorb the next item
	closeTo := func(n int) {
		for len(stack) > n {
			stack = stack[:len(stack)-1]
			b.Close()
			lastIso = -1
		}
	}
	// align closes what does not match wraps and opens what is missing.
	align := func(wraps []*node, keepFmt bool) {
		n := 0
		for n < len(stack) && n < len(wraps) && stack[n].wrap == wraps[n] {
			n++
		}
		if keepFmt && n == len(wraps) && n == len(stack)-1 && stack[n].wrap == nil {
			return
		}
		closeTo(n)
		for _, w := range wraps[n:] {
			pa.codes = append(pa.codes, code{kind: segment.Paired, typ: pa.typeOf(w), wrap: w})
			id := len(pa.codes)
			stack = append(stack, open{id: id, wrap: w})
			b.Open(id)
			lastIso = -1
		}
	}
	stackMatches := func(n int, wraps []*node) bool {
		for i := 0; i < n; i++ {
			if stack[i].wrap != wraps[i] {
				return false
			}
		}
		return true
	}
	for _, a := range mid {
		if a.iso {
			align(a.wraps, true)
			if lastIso > 0 {
				c := &pa.codes[lastIso-1]
				c.items = append(c.items, a)
				continue
			}
			pa.codes = append(pa.codes, code{kind: segment.Isolated, typ: codeType(a.item.name), items: []atom{a}})
			lastIso = len(pa.codes)
			b.Place(lastIso)
			continue
		}
		needFmt := a.key != baseKey[container(a.wraps)]
		top := len(stack) - 1
		if needFmt && top >= 0 && stack[top].wrap == nil && stack[top].key == a.key && top == len(a.wraps) && stackMatches(top, a.wraps) {
			b.Text(a.text)
			lastIso = -1
			continue
		}
		align(a.wraps, false)
		if needFmt {
			pa.codes = append(pa.codes, code{kind: segment.Paired, typ: "fmt", fmt: true, rpr: a.rpr})
			id := len(pa.codes)
			stack = append(stack, open{id: id, key: a.key})
			b.Open(id)
		}
		b.Text(a.text)
		lastIso = -1
	}
	closeTo(0)
	pa.tagged = b.String()
}

func (pa *para) typeOf(w *node) string {
	if w.name == pa.d.r {
		return "ruby"
	}
	return pa.d.wrappers[w.name]
}
