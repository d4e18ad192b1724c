// Package rtl is the right-to-left layout adapter (ports.RTLLayout). It
// converts an assembled .docx between writing directions following the
// project's RTL engineering brief (docs: shared design "rtl-ooxml"):
//
//   - LTR→RTL and RTL→LTR toggle paragraph, table and section direction
//     (through docDefaults where possible, directly where a paragraph
//     differs), never swap logical left/right values (jc, ind, tabs,
//     lvlJc, tblInd, table borders, cell margins), and mirror what is
//     physical: drawing anchors, frames, VML positions, floating tables,
//     asymmetric paragraph borders, page margins and gutters.
//   - Every direction, LTR→LTR and RTL→RTL included, fixes runs: runs are
//     split at script boundaries, w:rtl sits only on RTL-script and neutral
//     runs, complex-script twins (bCs, iCs, szCs) follow the Latin values,
//     w:lang/@w:bidi and themeFontLang name the target, and @cs fonts cover
//     the script (substituted and reported otherwise).
//   - Text gets LRM marks where the bidi algorithm would scramble numbers
//     and Latin fragments inside Arabic-script text; isolates are never
//     used. Options.NativeDigits writes Arabic-Indic or Persian digits.
//
// The package works on the zip through the shared package model
// (adapters/ooxml): untouched entries are copied raw, the story parts are
// those the DOCX engine translates (by content type), and changed XML parts
// are re-serialised from the tokenizer's raw tokens, so prefixes,
// namespace declarations and mc:Ignorable are kept and new elements are
// inserted at their schema position.
//
// The RTL report: Estimate (pre-scan of the source) and Apply return full,
// partial or degraded with warnings (lists A and B: README "Right-to-left layout"). They
// return nil only where direction is irrelevant: an LTR→LTR job whose
// document contains no right-to-left text. For same-direction jobs with
// RTL text (RTL→RTL, or LTR→LTR quoting Hebrew) only font coverage is
// reported, since nothing is mirrored.
package rtl

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/dragoman-translate/dragoman/adapters/ooxml"
	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
)

// Options tune the layout pass.
type Options struct {
	// NativeDigits writes Arabic-Indic (ar) or Persian (fa) digits in RTL
	// paragraphs instead of 0–9. No docx property can do this (README "Right-to-left layout").
	NativeDigits bool
	// Coverage decides whether a font has the target's glyphs; nil means
	// the installed fonts (fontconfig) when fc-list exists, else KnownFonts.
	Coverage FontCoverage
	// CSFonts overrides the complex-script font written per target code.
	CSFonts map[string]string
}

// Layout implements ports.RTLLayout.
type Layout struct {
	opts     Options
	coverage FontCoverage
	onParse  func(name string, storiesHeld int) // tests: called for every part parsed, into one tree or block by block
}

var (
	_ ports.RTLLayout       = (*Layout)(nil)
	_ ports.AssembledLayout = (*Layout)(nil)
)

// New makes the adapter.
func New(opts Options) *Layout {
	cov := opts.Coverage
	if cov == nil {
		if fc := (&Fontconfig{}); fc.Available() {
			cov = fc
		} else {
			cov = KnownFonts{}
		}
	}
	return &Layout{opts: opts, coverage: cov}
}

// mode is what a job's language pair and the document ask of the pass.
type mode struct {
	source, target       string
	sourceRTL, targetRTL bool
	sourceLangRTL        bool // the source language (when known) is written right to left
	flip                 bool // the direction changes: mirror physical positions
	twins                twinMode
	touchTwins           bool
	arabicScript         bool   // target written in Arabic script (UBA rule W2 applies)
	rtlLang              string // language whose script @cs fonts must cover; "" if none
}

// resolveMode reads the language pair. An empty source means "not known
// yet" (an estimate at submission with source_lang=auto): the document's
// own direction then decides, see settle.
func resolveMode(req ports.LayoutRequest) (mode, error) {
	var src language.Language
	if req.SourceLang != "" {
		var ok bool
		if src, ok = language.ByCode(req.SourceLang); !ok {
			return mode{}, fmt.Errorf("rtl: unknown source language %q", req.SourceLang)
		}
	}
	tgt, ok := language.ByCode(req.TargetLang)
	if !ok {
		return mode{}, fmt.Errorf("rtl: unknown target language %q", req.TargetLang)
	}
	m := mode{source: src.Code, target: tgt.Code, sourceLangRTL: src.IsRTL(), targetRTL: tgt.IsRTL()}
	m.arabicScript = tgt.Script == "Arab"
	m.settle(src.IsRTL(), "")
	return m, nil
}

// settle derives what depends on the source direction: sourceRTL is the
// direction the document is laid out in (its language's, or its own
// markup's), scriptLang the language of RTL letters found in it.
func (m *mode) settle(sourceRTL bool, scriptLang string) {
	m.sourceRTL = sourceRTL
	m.flip = m.sourceRTL != m.targetRTL
	switch {
	case m.targetRTL && !m.sourceRTL:
		m.twins = twinsForce
	case !m.targetRTL && m.sourceRTL:
		m.twins = twinsReverse
	default:
		m.twins = twinsMissing
	}
	switch {
	case m.targetRTL:
		m.rtlLang = m.target
	case m.sourceLangRTL:
		m.rtlLang = m.source
	default:
		m.rtlLang = scriptLang
	}
	m.touchTwins = m.targetRTL || m.sourceRTL || m.rtlLang != ""
}

// pass is one conversion of one package.
type pass struct {
	m           mode
	opts        Options
	coverage    FontCoverage
	styles      *styleSheet
	doc         docDirection
	geom        pageGeom
	csFont      string
	substituted map[string]bool
}

// Estimate pre-scans a source document for what the output would lose.
func (l *Layout) Estimate(ctx context.Context, src ports.Blob, req ports.LayoutRequest) (*job.RTLReport, error) {
	pk, err := l.open(src)
	if err != nil {
		return nil, err
	}
	if l.nothingToDo(pk, req) {
		return nil, nil
	}
	ps, err := l.preparePkg(pk, req)
	if err != nil {
		return nil, err
	}
	f, relevant, err := l.inventory(pk, ps)
	if err != nil || !relevant {
		return nil, err
	}
	return f.fidelity(ps.m.targetRTL), nil
}

// Apply converts an assembled document and writes the laid-out .docx.
func (l *Layout) Apply(ctx context.Context, src ports.Blob, req ports.LayoutRequest, out io.Writer) (*job.RTLReport, error) {
	pk, err := l.open(src)
	if err != nil {
		return nil, err
	}
	return l.apply(pk, req, out, func() error {
		if _, err := src.Seek(0, io.SeekStart); err != nil {
			return err
		}
		_, err := io.Copy(out, src)
		return err
	})
}

// ApplyAssembled is Apply on a document the DOCX engine assembled in
// memory (ports.AssembledLayout): the layout reads the translated parts
// where the engine left them, over the same opened package, and writes the
// package once, untouched entries copied raw.
func (l *Layout) ApplyAssembled(ctx context.Context, doc ports.Assembled, req ports.LayoutRequest, out io.Writer) (*job.RTLReport, error) {
	op, ok := doc.(*ooxml.Package)
	if !ok { // another engine's document: read it as written
		var buf bytes.Buffer
		if _, err := doc.WriteTo(&buf); err != nil {
			return nil, err
		}
		var err error
		if op, err = ooxml.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len())); err != nil {
			return nil, fmt.Errorf("rtl: %w", err)
		}
	}
	pk := wrapPkg(op)
	pk.onParse = l.onParse
	return l.apply(pk, req, out, func() error {
		_, err := op.WriteTo(out)
		return err
	})
}

// apply lays out pk and writes it to out; unchanged writes the document as
// it came when nothing in it or the target is right to left.
func (l *Layout) apply(pk *pkg, req ports.LayoutRequest, out io.Writer, unchanged func() error) (*job.RTLReport, error) {
	if l.nothingToDo(pk, req) {
		return nil, unchanged()
	}
	ps, err := l.preparePkg(pk, req)
	if err != nil {
		return nil, err
	}
	f, relevant, err := l.inventory(pk, ps)
	if err != nil {
		return nil, err
	}
	if !relevant {
		// Nothing right to left in the document nor the target: the
		// document goes out as it came.
		return nil, unchanged()
	}
	// Story parts are laid out as the package is written, block by block
	// (a top-level paragraph, table or content control at a time), so the
	// peak is the largest block's tree, not a story's.
	pk.layStory = ps.layoutBlock
	if err := ps.convert(pk, f); err != nil {
		return nil, err
	}
	if err := pk.write(out); err != nil {
		return nil, err
	}
	for _, name := range slices.Sorted(maps.Keys(ps.substituted)) { // the same warning on every run
		f.addName(kindSubstitution, fmt.Sprintf("%s → %s", name, ps.csFont))
	}
	return f.fidelity(ps.m.targetRTL), nil
}

func (l *Layout) prepare(src ports.Blob, req ports.LayoutRequest) (*pkg, *pass, error) {
	pk, err := l.open(src)
	if err != nil {
		return nil, nil, err
	}
	ps, err := l.preparePkg(pk, req)
	return pk, ps, err
}

// open opens src for this layout.
func (l *Layout) open(src ports.Blob) (*pkg, error) {
	pk, err := openPkg(src)
	if err != nil {
		return nil, err
	}
	pk.onParse = l.onParse
	return pk, nil
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
	dd, geom, err := pk.direction(ps.styles)
	if err != nil {
		return nil, err
	}
	ps.doc, ps.geom = dd, geom
	srcRTL := m.sourceLangRTL || dd.mostlyRTL() || m.source == "" && dd.rtlLetters > dd.otherLetters
	ps.m.settle(srcRTL, dd.scriptLang)
	if ps.m.rtlLang != "" {
		ps.csFont = ps.chooseCSFont()
	}
	return ps, nil
}

// chooseCSFont keeps the document's default @cs font when it covers the
// script and otherwise picks the configured or default free font.
func (ps *pass) chooseCSFont() string {
	if f := ps.opts.CSFonts[ps.m.rtlLang]; f != "" {
		return f
	}
	if ps.styles.defaults != nil {
		rf := ps.styles.defaults.Child("rPrDefault").Child("rPr").Child("rFonts")
		if cs, ok := rf.Attr("cs"); ok && ps.coverage.Covers(cs, ps.m.rtlLang) {
			if _, theme := rf.Attr("cstheme"); !theme {
				return cs
			}
		}
	}
	return defaultCSFont[ps.m.rtlLang]
}

// inventory scans the document for the report; relevant is false for an
// LTR→LTR job without RTL text.
func (l *Layout) inventory(pk *pkg, ps *pass) (*findings, bool, error) {
	f := newFindings()
	relevant := ps.relevant()
	if ps.csFont != "" && !ps.coverage.Covers(ps.csFont, ps.m.rtlLang) {
		f.addName(kindFont, fmt.Sprintf("%s has no %s glyphs", ps.csFont, scriptName(ps.m.rtlLang)))
	}
	if !ps.m.flip {
		return f, relevant, nil
	}
	for _, name := range pk.stories {
		if err := pk.eachBlock(name, nil, func(b storyBlock) {
			f.scanStory(b.c, ps)
			if t := b.props; t != nil && ps.m.targetRTL {
				tblPr := b.n
				if !tblPr.IsW("tblPr") {
					tblPr = nil
				}
				if narrowTableOf(t.n, tblPr, b.facts, ps.geom) {
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
		ps.layoutContent(root.RootElem())
		pk.changed[name] = true
	}
	if num, err := pk.part("word/numbering.xml"); err != nil {
		return err
	} else if num != nil {
		ps.layoutNumbering(num)
		pk.changed["word/numbering.xml"] = true
	}
	if err := ps.layoutCharts(pk); err != nil {
		return err
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

// layoutNumbering fixes list levels: cs twins and fonts in lvl/rPr,
// directional bullets swapped, native number formats back to decimal in
// LTR output. lvlJc and ind stay: they are logical.
func (ps *pass) layoutNumbering(root *node) {
	root.RootElem().Walk(func(n *node) bool {
		switch {
		case n.IsW("rPr"):
			ps.twins(n)
			ps.fonts(n)
		case n.IsW("lvlText") && ps.m.flip:
			font := n.Parent.Child("rPr").Child("rFonts").AttrOr("ascii", "")
			n.SetAttr("val", ps.mirrorText(n.AttrOr("val", ""), font))
		case n.IsW("numFmt") && ps.m.flip && !ps.m.targetRTL:
			switch n.AttrOr("val", "") {
			case "arabicAbjad", "arabicAlpha", "hebrew1", "hebrew2", "hindiNumbers", "hindiCounting":
				n.SetAttr("val", "decimal")
			}
		}
		return true
	})
}

// mirrorText swaps pointing glyphs (brief row 18).
func (ps *pass) mirrorText(s, font string) string {
	rs := []rune(s)
	for i, r := range rs {
		switch strings.ToLower(font) {
		case "wingdings":
			if m, ok := wingdingsMirror[r]; ok && pointsForward(r, ps.m.targetRTL, wingdingsRight) {
				rs[i] = m
			}
		case "symbol":
			if m, ok := symbolMirror[r]; ok && pointsForward(r, ps.m.targetRTL, symbolRight) {
				rs[i] = m
			}
		default:
			table := mirrorGlyph
			if !ps.m.targetRTL {
				table = mirrorGlyphBack
			}
			if m, ok := table[r]; ok {
				rs[i] = m
			}
		}
	}
	return string(rs)
}

var (
	wingdingsRight = map[rune]bool{0xF0D8: true, 0xF0E0: true, 0xF0E8: true}
	symbolRight    = map[rune]bool{0xF0AE: true, 0xF0DE: true}
)

// pointsForward: in RTL output swap right-pointing glyphs, in LTR output
// left-pointing ones.
func pointsForward(r rune, rtl bool, right map[rune]bool) bool { return right[r] == rtl }

// layoutSettings names the target in themeFontLang/@bidi (so minorBidi
// theme fonts resolve to the target script) and asks Word to update
// fields whose cached results depend on the translated text.
func (ps *pass) layoutSettings(root *node, fields bool) {
	r := root.RootElem()
	if ps.m.targetRTL {
		tfl := ensure(r, "themeFontLang", settingsOrder)
		tfl.SetAttr("bidi", locale(ps.m.target))
	}
	if fields && ps.m.flip {
		setFlag(r, "updateFields", true, settingsOrder)
	}
}

// layoutFontTable declares the complex-script font with its charset so
// Word substitutes a same-script font where it is missing.
func (ps *pass) layoutFontTable(root *node) {
	r := root.RootElem()
	for _, f := range r.ChildrenW("font") {
		if strings.EqualFold(f.AttrOr("name", ""), ps.csFont) {
			return
		}
	}
	f := ooxml.NewW(r, "font")
	f.SetAttr("name", ps.csFont)
	cs := ooxml.NewW(r, "charset")
	cs.SetAttr("val", charsetOf(ps.m.rtlLang))
	fam := ooxml.NewW(r, "family")
	fam.SetAttr("val", "auto")
	pitch := ooxml.NewW(r, "pitch")
	pitch.SetAttr("val", "variable")
	for _, c := range []*node{cs, fam, pitch} {
		insertOrdered(f, c, fontOrder)
	}
	r.InsertAt(len(r.Children), f)
}

// pkg is an opened .docx with the parts the layout has parsed.
type pkg struct {
	*ooxml.Package
	parsed  map[string]*node
	changed map[string]bool
	mainDoc string
	stories []string
	story   map[string]bool
	// layStory, when set, lays out each story part as the package is
	// written, block by block (eachBlock).
	layStory func(storyBlock)
	// tables are the facts of each story part's streamed tables, by their
	// order (streamedTable.index), gathered by the first pass (direction).
	tables  map[string][]tableFacts
	onParse func(name string, storiesHeld int)
}

func openPkg(src ports.Blob) (*pkg, error) {
	if _, err := src.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	op, err := ooxml.Open(src, src.Size())
	if err != nil {
		return nil, fmt.Errorf("rtl: %w", err)
	}
	return wrapPkg(op), nil
}

func wrapPkg(op *ooxml.Package) *pkg {
	pk := &pkg{Package: op, parsed: map[string]*node{}, changed: map[string]bool{}, tables: map[string][]tableFacts{}, mainDoc: op.Main(), stories: op.Stories(), story: map[string]bool{}}
	for _, s := range pk.stories {
		pk.story[s] = true
	}
	return pk
}

// part parses an entry once; a missing entry is (nil, nil). The layout
// reads story parts block by block (eachBlock); a story parsed whole here
// (the whole-tree order of convert) drops the tree of any other story not
// changed, so one is held at a time.
func (pk *pkg) part(name string) (*node, error) {
	if n, ok := pk.parsed[name]; ok {
		return n, nil
	}
	if pk.File(name) == nil {
		return nil, nil
	}
	held := 0
	if pk.story[name] {
		for other := range pk.parsed {
			if !pk.story[other] {
				continue
			}
			if pk.changed[other] {
				held++
			} else {
				delete(pk.parsed, other)
			}
		}
	}
	data, err := pk.ReadPart(name)
	if err != nil {
		return nil, fmt.Errorf("rtl: reading %s: %w", name, err)
	}
	if pk.onParse != nil {
		pk.onParse(name, held)
	}
	n, err := ooxml.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("rtl: parsing %s: %w", name, err)
	}
	pk.parsed[name] = n
	return n, nil
}

// rtlScriptLang finds the language of RTL text in an LTR document:
// "he" for Hebrew letters, "ar" for other RTL scripts, "" for none.
func (pk *pkg) rtlScriptLang() (string, error) {
	lang := ""
	for _, name := range pk.stories {
		err := pk.eachBlock(name, nil, func(b storyBlock) {
			b.c.Walk(func(n *node) bool {
				if n.IsW("t") {
					for _, r := range n.TextOf() {
						if inRTLBlock(r) {
							if r >= 0x0590 && r <= 0x05FF || r >= 0xFB1D && r <= 0xFB4F {
								lang = "he"
							} else if lang == "" {
								lang = "ar"
							}
						}
					}
				}
				return true
			})
		})
		if err != nil {
			return "", err
		}
	}
	return lang, nil
}

// storyContainer tells the elements of a story part that hold its blocks:
// the root element (w:document, w:hdr, w:ftr, w:footnotes, w:endnotes,
// w:comments), the body, the notes and comments, content controls and
// custom XML wrapping body content, and tables, their rows and cells
// (streamedTables decides which). Every other element under them (a
// paragraph, a table's properties or grid, a cell's properties, a
// section's properties) is a block, laid out on its own: nothing the
// layout does to one looks at another, except a table's properties, which
// depend on the paragraphs below them (tableFacts, gathered by the first
// pass).
func storyContainer(n *node) bool {
	if n.Parent.Kind == ooxml.RawNode {
		return true
	}
	for _, c := range []string{"body", "sdt", "sdtContent", "customXml", "footnote", "endnote", "comment", "tbl", "tr", "tc"} {
		if n.IsW(c) {
			return true
		}
	}
	return false
}

// streamedTable is a table eachBlock streams row by row.
type streamedTable struct {
	n         *node
	index     int  // its order among the part's streamed tables, by start tag
	begun     bool // a block directly in it (its tblPr, its grid) was handed over
	propsDone bool // its properties were handed over (storyBlock.props)
	// cell is the text width of the cell holding it (cellTextOf, as
	// cellText finds it in a tree), 0 when it is not in a cell or that is
	// unknown; set as it starts (tableFacts.cell).
	cell int
	// As it is streamed: its grid columns (gridCols of its first tblGrid),
	// the row directly in it being streamed, and the grid column the next
	// cell directly in that row starts at (gridBefore, then each cell's
	// span), for the cells' widths (streamedCell).
	grid    []int
	hasGrid bool
	row     *node
	rowPr   bool // row's (first) trPr was seen
	next    int
}

// streamedCell is a cell of a streamed table being streamed, as
// streamedTables follows it for the tables nested in it.
type streamedCell struct {
	n    *node
	tcPr *node // its (first) properties, once handed over
	// in is the table whose row holds it directly (nil if none: cellText
	// then knows no grid either); grid and col are that table's grid
	// columns and the column the cell starts at.
	in   *streamedTable
	grid []int
	col  int
}

// storyBlock is a block of a story part as eachBlock hands it over.
type storyBlock struct {
	n *node
	// c is n's container, which holds n alone: walking c (Walk visits
	// descendants) walks n as the whole part's root element walks it.
	c *node
	// tables are the streamed tables holding n, outermost first.
	tables []*streamedTable
	// props is the table whose properties are to be laid out with n: n is
	// its tblPr, or, where it has none, its first block, before which one
	// is inserted (tableFacts.hasPr; whitespace before that block, already
	// written, then precedes the new tblPr instead of following it);
	// facts are its facts.
	props *streamedTable
	facts tableFacts
}

// streamedTables follows the tables of one story part as it is streamed.
// A table is streamed (a container) as its parent is; its rows and cells
// too, once a block directly in the table (its tblPr or tblGrid, which
// schema puts first) has been handed over, so the table's properties are
// met before its rows: a table without either has its first child held
// whole, as before. It also follows the grid, rows and cells of the
// streamed tables, so that a table nested in a cell knows the cell's width
// though the cell's properties, its row's and its table's grid are
// written and dropped by then.
type streamedTables struct {
	open  []*streamedTable // innermost last
	cells []*streamedCell  // the open cells of streamed tables, innermost last
	count int
}

// under drops the tables and cells that are not ancestors of n (they are
// complete).
func (s *streamedTables) under(n *node) {
	for len(s.open) > 0 && !ancestor(s.open[len(s.open)-1].n, n) {
		s.open = s.open[:len(s.open)-1]
	}
	for len(s.cells) > 0 && !ancestor(s.cells[len(s.cells)-1].n, n) {
		s.cells = s.cells[:len(s.cells)-1]
	}
}

// ancestor reports whether a is an ancestor of n.
func ancestor(a, n *node) bool {
	p := n.Parent
	for p != nil && p != a {
		p = p.Parent
	}
	return p != nil
}

// cell is the innermost open cell, nil if none.
func (s *streamedTables) cell() *streamedCell {
	if len(s.cells) == 0 {
		return nil
	}
	return s.cells[len(s.cells)-1]
}

// container is storyContainer for the part being streamed.
func (s *streamedTables) container(n *node) bool {
	if !storyContainer(n) {
		return false
	}
	if n.Parent.Kind == ooxml.RawNode {
		return true
	}
	s.under(n)
	if len(s.open) > 0 {
		if top := s.open[len(s.open)-1]; n.Parent == top.n && !top.begun {
			return false
		}
	}
	var top *streamedTable
	if len(s.open) > 0 {
		top = s.open[len(s.open)-1]
	}
	switch {
	case n.IsW("tbl"):
		t := &streamedTable{n: n, index: s.count}
		if c := s.cell(); c != nil && n.Parent == c.n {
			t.cell = cellTextOf(c.tcPr, c.grid, c.col)
		}
		s.open = append(s.open, t)
		s.count++
	case n.IsW("tr") && top != nil && n.Parent == top.n:
		top.row, top.rowPr, top.next = n, false, 0
	case n.IsW("tc"):
		c := &streamedCell{n: n}
		if top != nil && top.row != nil && n.Parent == top.row {
			c.in, c.grid, c.col = top, top.grid, top.next
			top.next++ // one column, unless its tcPr says more
		}
		s.cells = append(s.cells, c)
	}
	return true
}

// follow notes what block b says about the grid, rows and cells of the
// streamed tables (see streamedTables): a table's grid, a row's trPr, a
// cell's tcPr.
func (s *streamedTables) follow(b *node) {
	if c := s.cell(); c != nil && b.Parent == c.n && b.IsW("tcPr") && c.tcPr == nil {
		c.tcPr = b
		if c.in != nil {
			c.in.next = c.col + cellSpan(b)
		}
	}
	if len(s.open) == 0 {
		return
	}
	top := s.open[len(s.open)-1]
	switch {
	case b.Parent == top.n && b.IsW("tblGrid") && !top.hasGrid:
		top.grid, top.hasGrid = gridCols(b), true
	case top.row != nil && b.Parent == top.row && b.IsW("trPr") && !top.rowPr:
		top.rowPr, top.next = true, gridBefore(b)
	}
}

// block describes block b.
func (s *streamedTables) block(b *node, facts []tableFacts) storyBlock {
	s.under(b)
	s.follow(b)
	sb := storyBlock{n: b, c: b.Parent, tables: s.open}
	if len(s.open) == 0 {
		return sb
	}
	top := s.open[len(s.open)-1]
	if b.Parent != top.n {
		return sb
	}
	if !top.propsDone {
		if top.index < len(facts) {
			sb.facts = facts[top.index]
		}
		sb.facts.cell = top.cell
		if b.IsW("tblPr") || !sb.facts.hasPr {
			sb.props, top.propsDone = top, true
		}
	}
	top.begun = true
	return sb
}

// eachBlock streams a story part block by block (see storyContainer),
// calling fn with each block, which holds its subtree and its ancestors
// (the containers) but no siblings: fn walks its container as it would
// walk the whole part's root element (Walk visits descendants). With w,
// the part is written as fn left it. The peak is the largest block's
// tree, not the part's: a table streamed row by row holds one block of a
// cell at a time (issue 15 item 3).
func (pk *pkg) eachBlock(name string, w io.Writer, fn func(storyBlock)) error {
	f := pk.File(name)
	if f == nil {
		return nil
	}
	if pk.onParse != nil {
		held := 0
		for other := range pk.parsed {
			if pk.story[other] {
				held++
			}
		}
		pk.onParse(name, held)
	}
	rc, err := pk.Open(f)
	if err != nil {
		return fmt.Errorf("rtl: reading %s: %w", name, err)
	}
	defer rc.Close()
	var st streamedTables
	facts := pk.tables[name]
	err = ooxml.StreamBlocks(rc, w, st.container, func(b *node) error { fn(st.block(b, facts)); return nil })
	if errors.Is(err, ooxml.ErrBlockTooLarge) {
		// The document's fault, not a passing one: the job fails with this.
		return fmt.Errorf("right-to-left layout of %s: %w; split it into smaller paragraphs or tables (%w)", name, err, ports.ErrBadDocument)
	}
	if err != nil {
		return fmt.Errorf("rtl: parsing %s: %w", name, err)
	}
	return nil
}

// write copies untouched entries raw and re-serialises changed parts
// straight into the package.
func (pk *pkg) write(out io.Writer) error {
	return pk.WriteEach(out, func(name string) func(io.Writer) error {
		if pk.layStory != nil && pk.story[name] {
			return func(w io.Writer) error { return pk.eachBlock(name, w, pk.layStory) }
		}
		if !pk.changed[name] {
			return nil
		}
		return func(w io.Writer) error { return ooxml.WriteTree(w, pk.parsed[name]) }
	})
}

var xmlSpacePreserve = xml.Attr{Name: xml.Name{Space: "xml", Local: "space"}, Value: "preserve"}
