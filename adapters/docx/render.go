package docx

import (
	"archive/zip"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/dragoman-translate/dragoman/adapters/docx/structure"
	"github.com/dragoman-translate/dragoman/adapters/ooxml"
	"github.com/dragoman-translate/dragoman/adapters/rtl"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/segment"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// Render writes the package with each block rewritten with its
// translation, laid out, and counted for the structure check, as the
// translated units come; parts without text are copied raw.
func (s *source) Render(ctx context.Context, next func() (*segment.Unit, error), req ports.LayoutRequest, out io.Writer) (*ports.Rendered, error) {
	r := &render{next: next, diagram: map[string]*segment.Unit{}}
	var lay *rtl.Doc
	if s.lay != nil && req.TargetLang != "" {
		ok, err := s.lay.Prepare(req, r.text)
		if err != nil {
			return nil, err
		}
		if ok {
			lay = s.lay
		}
	}
	tally := &structure.Tally{Source: s.total}
	var failed error
	err := s.pk.Rewrite(out, func(f *zip.File) ooxml.Edit {
		if failed != nil || ctx.Err() != nil {
			return ooxml.Edit{}
		}
		e, err := s.edit(f, r, lay, tally)
		if err != nil {
			failed = err
		}
		return e
	})
	if failed != nil {
		return nil, failed
	}
	if err == nil {
		err = r.err
	}
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return nil, partError("the document", err)
	}
	rep := &ports.Rendered{}
	for _, c := range []struct {
		n         int
		one, many string
	}{
		{r.untranslated, "1 sentence had no translation; its original text was kept", "%d sentences had no translation; their original text was kept"},
		{r.repaired, "1 sentence lost formatting, which was put back where it most likely belongs", "%d sentences lost formatting, which was put back where it most likely belongs"},
		{r.mismatched, "1 paragraph no longer matched the original and was kept untranslated", "%d paragraphs no longer matched the original and were kept untranslated"},
		{r.reordered, "In 1 paragraph the parts of a field were reordered; their order was restored", "In %d paragraphs the parts of a field were reordered; their order was restored"},
	} {
		switch {
		case c.n == 1:
			rep.Warnings = append(rep.Warnings, c.one)
		case c.n > 1:
			rep.Warnings = append(rep.Warnings, fmt.Sprintf(c.many, c.n))
		}
	}
	if s.signed {
		rep.Warnings = append(rep.Warnings, "the document was digitally signed; the signature is no longer valid after translation")
	}
	if lay != nil {
		rep.RTL = lay.Report()
	}
	st := tally.Report()
	rep.Structure, rep.StructureLost = st.Summary(), st.Lost()
	return rep, nil
}

// edit is how the render writes entry f.
func (s *source) edit(f *zip.File, r *render, lay *rtl.Doc, tally *structure.Tally) (ooxml.Edit, error) {
	name, kind := f.Name, s.pk.Kind(f)
	r.part, r.collect = map[string]*segment.Unit{}, false
	var tree *node
	if lay != nil {
		tree = lay.Tree(name)
	}
	switch kind {
	case ooxml.Settings:
		if s.hasTOC && !strings.Contains(name, "glossary/") {
			if tree == nil {
				var err error
				if tree, err = s.pk.Tree(name); err != nil {
					return ooxml.Edit{}, err
				}
			}
			updateFields(tree)
		}
		return ooxml.Edit{Tree: tree}, nil
	case ooxml.Story:
		return s.story(name, r, lay, tally)
	case ooxml.Drawing, ooxml.DiagramDrawing, ooxml.CoreProp:
		if s.units[name] == 0 && (kind != ooxml.DiagramDrawing || len(r.diagram) == 0) {
			return ooxml.Edit{Tree: tree}, nil
		}
		p := newProc(name, kind)
		p.r = r
		r.collect = strings.Contains(name, "diagrams/data")
		if tree == nil {
			return ooxml.Edit{Container: p.container, Block: p.block}, nil
		}
		var err error
		tree.Walk(func(n *node) bool { // the blocks a stream would hand over
			if err == nil && p.wanted(n) {
				err = p.block(n)
				return false
			}
			return err == nil
		})
		return ooxml.Edit{Tree: tree}, err
	}
	return ooxml.Edit{Tree: tree}, nil
}

// story renders a story part block by block: each block counted as read,
// rewritten with its translation, laid out and counted again.
func (s *source) story(name string, r *render, lay *rtl.Doc, tally *structure.Tally) (ooxml.Edit, error) {
	var layBlock func(*ooxml.Block)
	if lay != nil {
		layBlock = lay.Story(name)
	}
	if s.units[name] == 0 && layBlock == nil {
		if c := s.counts[name]; c != nil {
			tally.Output.Add(*c) // copied as it is
		}
		return ooxml.Edit{}, nil
	}
	// The source's formatting is measured here, block by block, before its
	// translation replaces it; its counts were the read's.
	var scratch structure.Counts
	in, err := structure.PartScan(s.pk, name, &scratch, true)
	if err != nil {
		return ooxml.Edit{}, err
	}
	out, err := structure.PartScan(s.pk, name, &tally.Output, true)
	if err != nil {
		return ooxml.Edit{}, err
	}
	p := newProc(name, ooxml.Story)
	p.r = r
	paras := 0
	st := &ooxml.StoryStream{Open: out.Open, Block: func(b *ooxml.Block) error {
		spans := scratch.FormatSpans
		src := in.Block(b)
		tally.Source.FormatSpans += scratch.FormatSpans - spans
		if err := p.block(b.N); err != nil {
			return err
		}
		if layBlock != nil {
			layBlock(b)
		}
		tally.Paragraphs(name, paras, src, out.Block(b))
		paras += len(src)
		return r.err
	}}
	return ooxml.Edit{Story: st}, nil
}

// render is the state of one render: the translated units as they come,
// in the order the read handed them over.
type render struct {
	next    func() (*segment.Unit, error)
	ahead   []*segment.Unit          // pulled and not yet taken, in order
	part    map[string]*segment.Unit // taken in the current part (a text box's twin and a chart's repeated label reuse them)
	diagram map[string]*segment.Unit // SmartArt data paragraphs, by source, for the cached drawing
	collect bool                     // the part is SmartArt data
	err     error

	// What the render found, said as sentences about the document:
	// segments without a translation, translations whose codes it
	// repaired, units that did not match their paragraph, fields whose
	// parts it put back in order.
	untranslated, repaired, mismatched, reordered int
}

// pull is the next unit translated, nil after the last or on an error.
func (r *render) pull() *segment.Unit {
	if r.err != nil {
		return nil
	}
	u, err := r.next()
	if err != nil {
		if err != io.EOF {
			r.err = err
		}
		return nil
	}
	return u
}

// unit is the translated unit id when it is the next one (or was taken in
// this part already); nil if the read made none for that place.
func (r *render) unit(id string) *segment.Unit {
	if u := r.part[id]; u != nil {
		return u
	}
	var u *segment.Unit
	if len(r.ahead) > 0 {
		if r.ahead[0].ID != id {
			return nil
		}
		u = r.ahead[0]
		r.ahead[0] = nil
		r.ahead = r.ahead[1:]
	} else if u = r.pull(); u == nil {
		return nil
	} else if u.ID != id {
		r.ahead = append(r.ahead, u)
		return nil
	}
	r.part[id] = u
	if r.collect {
		var src strings.Builder
		for _, s := range u.Segments {
			src.WriteString(s.Source)
		}
		if have := r.diagram[src.String()]; have == nil || u.ID < have.ID {
			r.diagram[src.String()] = u
		}
	}
	return u
}

// diagramUnit is the SmartArt data unit whose source is tagged.
func (r *render) diagramUnit(tagged string) *segment.Unit { return r.diagram[tagged] }

// text is the translation of unit id as plain text, for the layout of a
// table whose direction depends on its paragraphs': the units ahead of
// the render are pulled and kept until their place.
func (r *render) text(id string) (string, bool) {
	u := r.part[id]
	for i := 0; u == nil && i < len(r.ahead); i++ {
		if r.ahead[i].ID == id {
			u = r.ahead[i]
		}
	}
	for u == nil {
		if u = r.pull(); u == nil {
			return "", false
		}
		r.ahead = append(r.ahead, u)
		if u.ID != id {
			u = nil
		}
	}
	var sb strings.Builder
	for _, s := range u.Segments {
		t := s.Target
		if t == "" {
			t = s.Source
		}
		sb.WriteString(tagged.Plain(t))
	}
	return sb.String(), true
}
