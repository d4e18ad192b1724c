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
	"fmt"
	"io"
	"maps"
	"slices"

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
	rtlLang              string // language of the right-to-left script in play; "" if none
	// csLang is the language whose script @cs fonts must cover: rtlLang,
	// or a left-to-right target Word sets with its complex-script font
	// (Hindi from Urdu: the Devanagari, not the Urdu left untranslated).
	csLang string
	// csTarget: the target is such a left-to-right complex script.
	csTarget bool
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
	_, m.csTarget = defaultCSFont[tgt.Code]
	m.csTarget = m.csTarget && !tgt.IsRTL()
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
	m.csLang = m.rtlLang
	if m.csTarget && m.sourceRTL {
		m.csLang = m.target
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
	sects       sections
	mainPart    string
	part        string        // the story part being laid out or scanned
	cursor      sectionCursor // the section being laid out, kept in geom
	geom        pageGeom      // its page
	csFont      string
	fallback    string        // the font for what csFont lacks (csFallback), "" if none
	lacks       map[rune]bool // what csFont lacks of neededRunes, set in fallback's runs
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
	// The same pass reads the sections of the main part.
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

// chooseCSFont keeps the document's default @cs font when it covers the
// script and otherwise picks the configured or default free font.
func (ps *pass) chooseCSFont() string {
	if f := ps.opts.CSFonts[ps.m.csLang]; f != "" {
		return f
	}
	if ps.styles.defaults != nil {
		rf := ps.styles.defaults.Child("rPrDefault").Child("rPr").Child("rFonts")
		if cs, ok := rf.Attr("cs"); ok && ps.coverage.Covers(cs, ps.m.csLang) {
			if _, theme := rf.Attr("cstheme"); !theme {
				return cs
			}
		}
	}
	return defaultCSFont[ps.m.csLang]
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
