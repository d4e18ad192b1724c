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
// those the DOCX engine translates (by content type) and are read and
// written block by block (ooxml.StreamStory), and changed XML parts are
// re-serialised from the tree, so prefixes, namespace declarations and
// mc:Ignorable are kept and new elements are inserted at their schema
// position. A layout is a Doc: the DOCX engine's render of a translation
// lays out each block as it writes it, having shown the layout every block
// of the read (doc.go); Apply does the same on a package as it is.
//
// The RTL report: Estimate (pre-scan of the source) and Apply return full,
// partial or degraded with warnings (lists A and B: README "Right-to-left layout"). They
// return nil only where direction is irrelevant: an LTR→LTR job whose
// document contains no right-to-left text. For same-direction jobs with
// RTL text (RTL→RTL, or LTR→LTR quoting Hebrew) only font coverage is
// reported, since nothing is mirrored.
package rtl

import (
	"fmt"

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

var _ ports.RTLLayout = (*Layout)(nil)

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
