package rtl

import (
	"fmt"
	"strings"

	"github.com/dragoman-translate/dragoman/adapters/ooxml"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// The whole-tree layout: each story parsed into one tree and laid out
// with the same layoutContent as the blocks of a render, the reference the
// tests compare the streamed layout with.

func (l *Layout) prepare(src ports.Blob, req ports.LayoutRequest) (*pkg, *pass, error) {
	pk, err := l.open(src)
	if err != nil {
		return nil, nil, err
	}
	ps, err := l.preparePkg(pk, req)
	return pk, ps, err
}

// preparePkg settles the pass's mode, styles and geometry from an opened
// package.
func (l *Layout) preparePkg(pk *pkg, req ports.LayoutRequest) (*pass, error) {
	m, err := resolveMode(req)
	if err != nil {
		return nil, err
	}
	styles, err := pk.part("word/styles.xml")
	if err != nil {
		return nil, err
	}
	ps := &pass{m: m, opts: l.opts, coverage: l.coverage, substituted: map[string]bool{}}
	ps.styles = newStyleSheet(styles)
	if pk.mainDoc == "" || pk.File(pk.mainDoc) == nil {
		return nil, fmt.Errorf("rtl: package has no main document part")
	}
	// The document's own direction counts as much as its language's: a
	// French-detected document laid out right to left is converted too.
	// The same pass reads the page geometry of the main part.
	dd, secs, err := pk.direction(ps.styles)
	if err != nil {
		return nil, err
	}
	ps.doc, ps.sects, ps.mainPart = dd, secs, pk.mainDoc
	ps.cursor.s = &ps.sects
	ps.geom = ps.sects.last()
	srcRTL := m.sourceLangRTL || dd.mostlyRTL() || m.source == "" && dd.rtlLetters > dd.otherLetters
	ps.m.settle(srcRTL, dd.scriptLang)
	if ps.m.csLang != "" {
		ps.csFont = ps.chooseCSFont()
		ps.chooseFallback()
	}
	return ps, nil
}

// direction scans the story parts once, block by block, as Doc.Observe
// does.
func (pk *pkg) direction(st *styleSheet) (docDirection, sections, error) {
	var d docDirection
	var secs sections
	refs := map[string]int{}
	he := false
	for _, name := range pk.stories {
		main := name == pk.mainDoc
		var facts []tableFacts
		err := pk.eachBlock(name, nil, func(b storyBlock) {
			if main {
				secs.add(b.c, refs)
			}
			d.scan(b.c, st, &he)
			facts = gatherFacts(facts, &ooxml.Block{N: b.n, C: b.c, Tables: b.tables}, nil)
		})
		if err != nil {
			return d, secs, err
		}
		pk.tables[name] = facts
	}
	switch {
	case he:
		d.scriptLang = "he"
	case d.rtlLetters > 0:
		d.scriptLang = "ar"
	}
	return d, secs, secs.resolveParts(pk, refs)
}

// inventory scans the document for the report; relevant is false for an
// LTR→LTR job without RTL text.
func (l *Layout) inventory(pk *pkg, ps *pass) (*findings, bool, error) {
	f := newFindings()
	relevant := ps.relevant()
	if ps.csFont != "" && !ps.coverage.Covers(ps.csFont, ps.m.csLang) {
		f.addName(kindFont, fmt.Sprintf("%s has no %s glyphs", ps.csFont, scriptName(ps.m.csLang)))
	}
	if !ps.m.flip {
		return f, relevant, nil
	}
	for _, name := range pk.stories {
		ps.startPart(name)
		if err := pk.eachBlock(name, nil, func(b storyBlock) {
			f.scanStory(b.c)
			if !ps.m.targetRTL {
				return
			}
			b.c.Walk(func(n *node) bool {
				ps.geom = ps.cursor.visit(n) // a table is narrow on its own section's page
				if n.IsW("tbl") && narrowTable(n, ps.geom) {
					f.add(kindNarrowTable, 1)
				}
				return true
			})
			ps.geom = ps.cursor.done()
			if t := b.props; t != nil {
				tblPr := b.n
				if !tblPr.IsW("tblPr") {
					tblPr = nil
				}
				if narrowTableOf(t.N, tblPr, b.facts, ps.geom) {
					f.add(kindNarrowTable, 1)
				}
			}
		}); err != nil {
			return nil, false, err
		}
	}
	if set, err := pk.part("word/settings.xml"); err != nil {
		return nil, false, err
	} else if set != nil {
		r := set.RootElem()
		for _, k := range []string{"mirrorMargins", "bookFoldPrinting", "bookFoldRevPrinting", "gutterAtTop"} {
			if ooxml.On(r.Child(k)) {
				f.count[kindBookFold] = 1
			}
		}
	}
	if num, err := pk.part("word/numbering.xml"); err != nil {
		return nil, false, err
	} else if num != nil {
		for _, t := range num.RootElem().FindAllW("lvlText") {
			for _, r := range t.AttrOr("val", "") {
				if unmappableDirectional[r] {
					f.add(kindArrowBullet, 1)
				}
			}
		}
	}
	return f, true, nil
}

// convert rewrites every part the layout touches.
func (ps *pass) convert(pk *pkg, f *findings) error {
	ps.part = "" // each story part starts at its first section (startPart)
	if st, _ := pk.part("word/styles.xml"); st != nil {
		ps.layoutStyles(st)
		pk.changed["word/styles.xml"] = true
	}
	// Story parts are laid out block by block as they are written
	// (pk.layStory, always set by apply). Without it each story is laid
	// out here as one tree, with the same layoutContent: the order the
	// tests compare the streamed output with.
	for _, name := range pk.stories {
		if pk.layStory != nil {
			break // laid out as written (pk.write)
		}
		root, err := pk.part(name)
		if err != nil {
			return err
		}
		ps.startPart(name)
		ps.layoutContent(root.RootElem())
		pk.changed[name] = true
	}
	if num, err := pk.part("word/numbering.xml"); err != nil {
		return err
	} else if num != nil {
		ps.layoutNumbering(num)
		pk.changed["word/numbering.xml"] = true
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
			pk.changed[fl.Name] = true
		}
	}
	if set, err := pk.part("word/settings.xml"); err != nil {
		return err
	} else if set != nil {
		ps.layoutSettings(set, f.count[kindFields] > 0)
		pk.changed["word/settings.xml"] = true
	}
	if ps.csFont != "" {
		if ft, err := pk.part("word/fontTable.xml"); err != nil {
			return err
		} else if ft != nil {
			ps.layoutFontTable(ft)
			pk.changed["word/fontTable.xml"] = true
		}
	}
	return nil
}
