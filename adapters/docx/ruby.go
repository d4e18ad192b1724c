package docx

import "github.com/dragoman-translate/dragoman/adapters/ooxml"

// Ruby (phonetic guides over East Asian text) sits inside a run:
//
//	<w:r><w:rPr/><w:ruby><w:rubyPr/><w:rt>runs</w:rt><w:rubyBase>runs</w:rubyBase></w:ruby></w:r>
//
// The base text (w:rubyBase) is the text a reader reads, so it is
// translated: the run holding the ruby becomes a paired wrapper code around
// the base's runs, the way a hyperlink wraps its runs. Everything before
// the base (run properties, ruby properties and the annotation w:rt) is the
// wrapper's opening markup and is kept exactly: the annotation is a reading
// aid for the source words, which no engine can redo for the translation,
// and keeping it keeps the ruby valid.

// rubyOf is the w:ruby of a run that holds nothing but its properties and
// one ruby with a base; nil otherwise.
func rubyOf(d *dialect, r *node) *node {
	if !d.word {
		return nil
	}
	var ruby *node
	for _, k := range r.Children {
		switch {
		case k.Kind != ooxml.ElemNode || d.is(k, "rPr"):
		case d.is(k, "ruby") && ruby == nil && childOf(d, k, "rubyBase") != nil:
			ruby = k
		default:
			return nil
		}
	}
	return ruby
}

func childOf(d *dialect, n *node, local string) *node {
	for _, k := range n.Children {
		if d.is(k, local) {
			return k
		}
	}
	return nil
}

// ruby flattens the base of a ruby run as wrapped content and reports
// whether it held anything.
func (fl *flattener) ruby(r *node, wraps []*node) bool {
	base := childOf(fl.d, rubyOf(fl.d, r), "rubyBase")
	if len(base.Children) == 0 {
		return false
	}
	n := len(fl.atoms)
	w := append(append([]*node(nil), wraps...), r)
	for _, c := range base.Children {
		fl.content(c, w)
	}
	return len(fl.atoms) > n
}

// rubyCopy copies a ruby run up to its base: the run with its properties,
// the ruby with what precedes the base (its properties and annotation),
// and an empty base, which inner is.
func rubyCopy(d *dialect, r *node) (top, inner *node) {
	top = shallow(r)
	for _, k := range r.Children {
		if k.Kind != ooxml.ElemNode {
			continue
		}
		if !d.is(k, "ruby") {
			adopt(top, k.Clone())
			continue
		}
		ruby := shallow(k)
		adopt(top, ruby)
		for _, c := range k.Children {
			if c.Kind != ooxml.ElemNode {
				continue
			}
			if d.is(c, "rubyBase") {
				inner = shallow(c)
				adopt(ruby, inner)
				break
			}
			adopt(ruby, c.Clone())
		}
	}
	return top, inner
}
