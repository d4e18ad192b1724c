package docx

import (
	"archive/zip"
	"bufio"
	"io"

	"github.com/dragoman-translate/dragoman/adapters/ooxml"
	"github.com/dragoman-translate/dragoman/adapters/ooxml/xmlscan"
)

// afterUpdateFields are the settings that CT_Settings orders after
// w:updateFields; the new element goes before the first of them.
var afterUpdateFields = map[string]bool{
	"hdrShapeDefaults": true, "footnotePr": true, "endnotePr": true, "compat": true, "docVars": true,
	"rsids": true, "mathPr": true, "attachedSchema": true, "themeFontLang": true, "clrSchemeMapping": true,
	"doNotIncludeSubdocsInStats": true, "doNotAutoCompressPictures": true, "forceUpgrade": true,
	"captions": true, "readModeInkLockDown": true, "smartTagType": true, "schemaLibrary": true,
	"shapeDefaults": true, "doNotEmbedSmartTags": true, "decimalSymbol": true, "listSeparator": true,
}

// writeSettings copies settings.xml, adding w:updateFields when the
// document has a table of contents, so Word refreshes its translated
// entries and page numbers on open.
func writeSettings(pk *ooxml.Package, out sink, f *zip.File, hasTOC bool) error {
	if !hasTOC {
		return out.keep(f)
	}
	rc, err := pk.Open(f)
	if err != nil {
		return err
	}
	defer rc.Close()
	w, err := out.create(f)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	sc := xmlscan.New(rc)
	prefix, done := "", false
	for {
		t, err := sc.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		isStart := t.Kind == xmlscan.Start || t.Kind == xmlscan.Empty
		if isStart && sc.Depth() <= 1 && prefix == "" && t.Kind == xmlscan.Start && sc.Depth() == 1 {
			prefix = string(xmlscan.Prefix(t.Name)) // the root: w:settings
		} else if !done && sc.Depth() == 1 && isStart && string(xmlscan.Local(t.Name)) == "updateFields" {
			done = true // already there
		} else if !done && ((isStart && sc.Depth() <= 2 && afterUpdateFields[string(xmlscan.Local(t.Name))] && depthOf(sc, t) == 1) ||
			(t.Kind == xmlscan.End && sc.Depth() == 0)) {
			bw.WriteString("<" + q(prefix, "updateFields") + " " + q(prefix, "val") + `="true"/>`)
			done = true
		}
		bw.Write(t.Raw)
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return out.done(f)
}

// depthOf is the depth of a start token's parent (root children: 1).
func depthOf(sc *xmlscan.Scanner, t xmlscan.Token) int {
	if t.Kind == xmlscan.Start {
		return sc.Depth() - 1
	}
	return sc.Depth()
}
