package rtl

import "github.com/dragoman-translate/dragoman/adapters/ooxml"

// Schema sequences (ISO/IEC 29500-1) of the containers the adapter writes
// into. New children go before the first sibling that comes later in the
// sequence, so Word's schema validation never sees an out-of-order element.
var (
	pPrOrder         = seq("pStyle keepNext keepLines pageBreakBefore framePr widowControl numPr suppressLineNumbers pBdr shd tabs suppressAutoHyphens kinsoku wordWrap overflowPunct topLinePunct autoSpaceDE autoSpaceDN bidi adjustRightInd snapToGrid spacing ind contextualSpacing mirrorIndents suppressOverlap jc textDirection textAlignment textboxTightWrap outlineLvl divId cnfStyle rPr sectPr pPrChange")
	rPrOrder         = seq("rStyle rFonts b bCs i iCs caps smallCaps strike dstrike outline shadow emboss imprint noProof snapToGrid vanish webHidden color spacing w kern position sz szCs highlight u effect bdr shd fitText vertAlign rtl cs em lang eastAsianLayout specVanish oMath rPrChange")
	tblPrOrder       = seq("tblStyle tblpPr tblOverlap bidiVisual tblStyleRowBandSize tblStyleColBandSize tblW jc tblCellSpacing tblInd tblBorders shd tblLayout tblCellMar tblLook tblCaption tblDescription tblPrChange")
	sectPrOrder      = seq("headerReference footerReference footnotePr endnotePr type pgSz pgMar paperSrc pgBorders lnNumType pgNumType cols formProt vAlign noEndnote titlePg textDirection bidi rtlGutter docGrid printerSettings sectPrChange")
	fontOrder        = seq("altName panose1 charset family notTrueType pitch sig embedRegular embedBold embedItalic embedBoldItalic")
	docDefaultsOrder = seq("rPrDefault pPrDefault")
	styleOrder       = seq("name aliases basedOn next link autoRedefine hidden uiPriority semiHidden unhideWhenUsed qFormat locked personal personalCompose personalReply rsid pPr rPr tblPr trPr tcPr tblStylePr")
	lvlOrder         = seq("start numFmt lvlRestart pStyle isLgl suff lvlText lvlPicBulletId legacy lvlJc pPr rPr")
	settingsOrder    = seq("writeProtection view zoom removePersonalInformation removeDateAndTime doNotDisplayPageBoundaries displayBackgroundShape printPostScriptOverText printFractionalCharacterWidth printFormsData embedTrueTypeFonts embedSystemFonts saveSubsetFonts saveFormsData mirrorMargins alignBordersAndEdges bordersDoNotSurroundHeader bordersDoNotSurroundFooter gutterAtTop hideSpellingErrors hideGrammaticalErrors activeWritingStyle proofState formsDesign attachedTemplate linkStyles stylePaneFormatFilter stylePaneSortMethod documentType mailMerge revisionView trackRevisions doNotTrackMoves doNotTrackFormatting documentProtection autoFormatOverride styleLockTheme styleLockQFSet defaultTabStop autoHyphenation consecutiveHyphenLimit hyphenationZone doNotHyphenateCaps showEnvelope summaryLength clickAndTypeStyle defaultTableStyle evenAndOddHeaders bookFoldRevPrinting bookFoldPrinting bookFoldPrintingSheets drawingGridHorizontalSpacing drawingGridVerticalSpacing displayHorizontalDrawingGridEvery displayVerticalDrawingGridEvery doNotUseMarginsForDrawingGridOrigin drawingGridHorizontalOrigin drawingGridVerticalOrigin doNotShadeFormData noPunctuationKerning characterSpacingControl printTwoOnOne strictFirstAndLastChars noLineBreaksAfter noLineBreaksBefore savePreviewPicture doNotValidateAgainstSchema saveInvalidXml ignoreMixedContent alwaysShowPlaceholderText doNotDemarcateInvalidXml saveXmlDataOnly useXSLTWhenSaving saveThroughXslt showXMLTags alwaysMergeEmptyNamespace updateFields hdrShapeDefaults footnotePr endnotePr compat docVars rsids mathPr attachedSchema themeFontLang clrSchemeMapping doNotIncludeSubdocsInStats doNotAutoCompressPictures forceUpgrade captions readModeInkLockDown smartTagType schemaLibrary shapeDefaults doNotEmbedSmartTags decimalSymbol listSeparator")
)

func seq(s string) map[string]int {
	m := map[string]int{}
	i := 0
	start := 0
	for j := 0; j <= len(s); j++ {
		if j == len(s) || s[j] == ' ' {
			if j > start {
				if _, dup := m[s[start:j]]; !dup {
					m[s[start:j]] = i
				}
				i++
			}
			start = j + 1
		}
	}
	return m
}

// ensure returns parent's child local, creating it at its schema position.
func ensure(parent *node, local string, order map[string]int) *node {
	if c := parent.Child(local); c != nil {
		return c
	}
	c := ooxml.NewW(parent, local)
	insertOrdered(parent, c, order)
	return c
}

// insertOrdered puts c before the first known sibling that follows it in
// the sequence. Unknown children (extensions) are passed over.
func insertOrdered(parent, c *node, order map[string]int) {
	want, known := order[c.Local]
	if known {
		for i, s := range parent.Children {
			if s.Kind != ooxml.ElemNode {
				continue
			}
			if pos, ok := order[s.Local]; ok && pos > want {
				parent.InsertAt(i, c)
				return
			}
		}
	}
	parent.InsertAt(len(parent.Children), c)
}

// setFlag writes a boolean property: `<w:x/>` for true, `w:val="0"` for false.
func setFlag(parent *node, local string, value bool, order map[string]int) {
	c := ensure(parent, local, order)
	c.Attrs = nil
	if !value {
		c.SetAttr("val", "0")
	}
}

// ensureFirst returns the container child (pPr, rPr, tblPr) that must be
// the first element of its parent, creating it there.
func ensureFirst(parent *node, local string) *node {
	if c := parent.Child(local); c != nil {
		return c
	}
	c := ooxml.NewW(parent, local)
	parent.InsertAt(0, c)
	return c
}
