package docx

import "github.com/dragoman-translate/dragoman/adapters/ooxml/xmlscan"

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
	for _, k := range r.kids {
		switch {
		case !k.isElem() || k.name == d.rPr:
		case k.name == d.ruby && ruby == nil && childNamed(k, d.rubyBase) != nil:
			ruby = k
		default:
			return nil
		}
	}
	return ruby
}

func childNamed(n *node, name string) *node {
	for _, k := range n.kids {
		if k.name == name {
			return k
		}
	}
	return nil
}

// ruby flattens the base of a ruby run as wrapped content and reports
// whether it held anything.
func (fl *flattener) ruby(r *node, wraps []*node) bool {
	base := childNamed(rubyOf(fl.d, r), fl.d.rubyBase)
	if base.kind != xmlscan.Start {
		return false
	}
	n := len(fl.atoms)
	w := append(append([]*node(nil), wraps...), r)
	for _, c := range base.kids {
		fl.content(c, w)
	}
	return len(fl.atoms) > n
}

// rubyOpen is the ruby run's markup up to and including <w:rubyBase>.
func rubyOpen(d *dialect, r *node) []byte {
	b := append([]byte(nil), r.start...)
	for _, k := range r.kids {
		if k.name != d.ruby {
			b = writeRaw(b, k)
			continue
		}
		b = append(b, k.start...)
		for _, c := range k.kids {
			if c.name == d.rubyBase {
				return append(b, c.start...)
			}
			b = writeRaw(b, c)
		}
	}
	return b
}

// rubyClose closes what rubyOpen opened.
func rubyClose(d *dialect, r *node) []byte {
	ruby := rubyOf(d, r)
	base := childNamed(ruby, d.rubyBase)
	return append(append(append([]byte(nil), base.end...), ruby.end...), r.end...)
}
