package rtl

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/dragoman-translate/dragoman/adapters/ooxml"
	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// Doc is the layout of one document as a render applies it (the DOCX
// engine's render of a translation, or Apply): it learns the document
// from the blocks of its story parts as they are read (Observe), settles
// for a language pair what to do (Prepare: the parts laid out whole, such
// as styles and numbering, are laid out then), and lays out each block of
// the story parts as the render writes it (Story). Nothing is read twice
// and no story is held whole.
type Doc struct {
	l      *Layout
	pk     *pkg
	styles *styleSheet
	root   *node // styles.xml
	// hasDir: a direction element or a right-to-left letter in the styles
	// or a story (where there is none and neither language is written right
	// to left, there is nothing to lay out).
	hasDir bool
	dd     docDirection
	he     bool
	secs   sections       // the main part's sections, as read
	refs   map[string]int // header and footer relationship ids → the first section referring to them
	tables map[string][]tableFacts
	props  map[string]*propsTracker // per story part, as it is read
	f      *findings                // what the story parts hold, for the report
	narrow []narrowing              // tables that may be narrow, decided once the page is known

	ps    *pass            // after Prepare; nil: nothing to lay out
	trees map[string]*node // parts laid out whole, for the render to write
	text  func(unit string) (string, bool)
}

// Begin starts the layout of the package op (a translation rendered from
// it, or the package itself).
func (l *Layout) Begin(op *ooxml.Package) (*Doc, error) {
	pk := wrapPkg(op)
	pk.onParse = l.onParse
	return l.begin(pk)
}

func (l *Layout) begin(pk *pkg) (*Doc, error) {
	if pk.mainDoc == "" || pk.File(pk.mainDoc) == nil {
		return nil, fmt.Errorf("rtl: package has no main document part")
	}
	root, err := pk.part("word/styles.xml")
	if err != nil {
		return nil, err
	}
	d := &Doc{l: l, pk: pk, root: root, styles: newStyleSheet(root), refs: map[string]int{},
		tables: map[string][]tableFacts{}, props: map[string]*propsTracker{}, f: newFindings()}
	d.hasDir = root != nil && treeHasDirection(root)
	return d, nil
}

// Observe learns a block of story part name as the read goes: the
// document's direction and scripts, its page, its tables and what the
// report will say. unitOf names the translation unit a paragraph's text
// comes from ("" when it keeps its own, nil when none does): whether a
// table holds right-to-left paragraphs then depends on their translation.
func (d *Doc) Observe(name string, b *ooxml.Block, unitOf func(p *node) string) {
	sect := -1 // a table's section: for the main part, the sections ended before its block
	if name == d.pk.mainDoc {
		sect = len(d.secs.geoms)
		d.secs.add(b.C, d.refs)
	}
	d.dd.scan(b.C, d.styles, &d.he)
	d.tables[name] = gatherFacts(d.tables[name], b, unitOf)
	if !d.hasDir && treeHasDirection(b.C) {
		d.hasDir = true
	}
	d.f.scanStory(b.C)
	pt := d.props[name]
	if pt == nil {
		pt = &propsTracker{}
		d.props[name] = pt
	}
	sb := pt.block(name, b, d.tables[name])
	if sb.props != nil {
		tblPr := sb.n
		if !tblPr.IsW("tblPr") {
			tblPr = nil
		}
		nw := narrowingOf(sb.props.N, tblPr, name, sb.props.Index)
		nw.cell, nw.sect = sb.props.Cell, sect
		d.narrow = append(d.narrow, nw)
	}
	b.C.Walk(func(n *node) bool { // tables held whole in the block
		if n.IsW("tbl") {
			nw := narrowingOf(n, n.Child("tblPr"), "", -1)
			nw.f, nw.part, nw.sect = treeFacts(n), name, sect
			d.narrow = append(d.narrow, nw)
		}
		return true
	})
}

// Prepare settles the layout for req once the whole document was read:
// false where there is nothing to lay out (neither language nor the
// document is right to left), the document then being written as it
// came. The parts laid out whole are laid out here, before any story
// (whose paragraphs inherit from the styles as laid out). text gives the
// translation of a unit as plain text, for tables whose direction depends
// on it (nil: none is translated).
func (d *Doc) Prepare(req ports.LayoutRequest, text func(unit string) (string, bool)) (bool, error) {
	return d.prepare(req, text, true)
}

// prepare is Prepare, laying the parts out only when layout is set (an
// estimate needs the report, not the parts).
func (d *Doc) prepare(req ports.LayoutRequest, text func(unit string) (string, bool), layout bool) (bool, error) {
	m, err := resolveMode(req)
	if err != nil {
		return false, err
	}
	if !m.targetRTL && !m.sourceLangRTL && !d.hasDir {
		return false, nil
	}
	ps := &pass{m: m, opts: d.l.opts, coverage: d.l.coverage, substituted: map[string]bool{}, styles: d.styles}
	dd := d.dd
	switch {
	case d.he:
		dd.scriptLang = "he"
	case dd.rtlLetters > 0:
		dd.scriptLang = "ar"
	}
	if err := d.secs.resolveParts(d.pk, d.refs); err != nil {
		return false, err
	}
	ps.doc, ps.sects, ps.mainPart = dd, d.secs, d.pk.mainDoc
	ps.cursor.s = &ps.sects
	ps.geom = ps.sects.last()
	srcRTL := m.sourceLangRTL || dd.mostlyRTL() || m.source == "" && dd.rtlLetters > dd.otherLetters
	ps.m.settle(srcRTL, dd.scriptLang)
	if ps.m.csLang != "" {
		ps.csFont = ps.chooseCSFont()
		ps.chooseFallback()
	}
	if !ps.relevant() {
		return false, nil
	}
	d.ps, d.text, d.trees = ps, text, map[string]*node{}
	f := newFindings()
	if ps.csFont != "" && !ps.coverage.Covers(ps.csFont, ps.m.csLang) {
		f.addName(kindFont, fmt.Sprintf("%s has no %s glyphs", ps.csFont, scriptName(ps.m.csLang)))
	}
	if ps.m.flip {
		for k, n := range d.f.count {
			f.add(k, n)
		}
		if ps.m.targetRTL {
			for _, nw := range d.narrow {
				if nw.narrow(d.tables, ps.sects.of(nw.part, nw.sect, d.pk.mainDoc)) {
					f.add(kindNarrowTable, 1)
				}
			}
		}
	}
	d.f = f
	if !layout {
		return true, d.countParts()
	}
	return true, d.layoutParts()
}

// countParts adds to the report what the parts laid out whole hold, as
// layoutParts does.
func (d *Doc) countParts() error {
	if !d.ps.m.flip {
		return nil
	}
	if num, err := d.pk.part("word/numbering.xml"); err != nil {
		return err
	} else if num != nil {
		countArrowBullets(num, d.f)
	}
	if set, err := d.pk.part("word/settings.xml"); err != nil {
		return err
	} else if set != nil {
		countBookFold(set, d.f)
	}
	return nil
}

// layoutParts lays out the parts laid out whole: styles, numbering,
// charts, settings and the font table.
func (d *Doc) layoutParts() error {
	ps, pk, f := d.ps, d.pk, d.f
	if d.root != nil {
		ps.layoutStyles(d.root)
		d.trees["word/styles.xml"] = d.root
	}
	if num, err := pk.part("word/numbering.xml"); err != nil {
		return err
	} else if num != nil {
		if ps.m.flip {
			countArrowBullets(num, f)
		}
		ps.layoutNumbering(num)
		d.trees["word/numbering.xml"] = num
	}
	if ps.m.flip {
		for _, fl := range pk.Files() {
			if pk.Kind(fl) != ooxml.Drawing || !strings.Contains(fl.Name, "charts/chart") {
				continue
			}
			root, err := pk.part(fl.Name)
			if err != nil {
				return err
			}
			layoutChart(root)
			d.trees[fl.Name] = root
		}
	}
	if set, err := pk.part("word/settings.xml"); err != nil {
		return err
	} else if set != nil {
		if ps.m.flip {
			countBookFold(set, f)
		}
		ps.layoutSettings(set, f.count[kindFields] > 0)
		d.trees["word/settings.xml"] = set
	}
	if ps.csFont != "" {
		if ft, err := pk.part("word/fontTable.xml"); err != nil {
			return err
		} else if ft != nil {
			ps.layoutFontTable(ft)
			d.trees["word/fontTable.xml"] = ft
		}
	}
	return nil
}

// Tree is part name laid out whole, for the render to write (after its
// own changes); nil where the layout leaves the part to the render.
func (d *Doc) Tree(name string) *node {
	if d.ps == nil {
		return nil
	}
	return d.trees[name]
}

// Story lays out the blocks of story part name as the render writes them;
// nil where nothing is laid out.
func (d *Doc) Story(name string) func(*ooxml.Block) {
	if d.ps == nil || !d.pk.story[name] {
		return nil
	}
	pt, facts := &propsTracker{}, d.tables[name]
	started := false
	return func(b *ooxml.Block) {
		sb := pt.block(name, b, facts)
		if !started { // each story part starts at its first section
			started = true
			d.ps.startPart(name)
		}
		if sb.props != nil && d.ps.m.targetRTL {
			sb.facts.rtl = sb.facts.rtl || d.translatedRTL(sb.facts.units)
		}
		d.ps.layoutBlock(sb)
	}
}

// translatedRTL: one of the units' translations makes its paragraph right
// to left.
func (d *Doc) translatedRTL(units []string) bool {
	for _, id := range units {
		if s, ok := d.text(id); ok && paraRTL(s, true) {
			return true
		}
	}
	return false
}

// Report is what the layout could not do, once the render is done; nil
// where there was nothing to lay out.
func (d *Doc) Report() *job.RTLReport {
	ps := d.ps
	if ps == nil {
		return nil
	}
	for _, name := range slices.Sorted(maps.Keys(ps.substituted)) { // the same warning on every run
		d.f.addName(kindSubstitution, fmt.Sprintf("%s → %s", name, ps.csFont))
	}
	return d.f.fidelity(ps.m.targetRTL)
}

// countArrowBullets reports list bullets no glyph swap can mirror.
func countArrowBullets(num *node, f *findings) {
	for _, t := range num.RootElem().FindAllW("lvlText") {
		for _, r := range t.AttrOr("val", "") {
			if unmappableDirectional[r] {
				f.add(kindArrowBullet, 1)
			}
		}
	}
}

// countBookFold reports book-fold printing and mirrored margins.
func countBookFold(set *node, f *findings) {
	r := set.RootElem()
	for _, k := range []string{"mirrorMargins", "bookFoldPrinting", "bookFoldRevPrinting", "gutterAtTop"} {
		if ooxml.On(r.Child(k)) {
			f.count[kindBookFold] = 1
		}
	}
}
