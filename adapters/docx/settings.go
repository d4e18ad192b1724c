package docx

import (
	"github.com/dragoman-translate/dragoman/adapters/ooxml"
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

// updateFields adds w:updateFields to settings.xml (its parsed tree) of a
// document with a table of contents, so Word refreshes its translated
// entries and page numbers on open.
func updateFields(doc *node) {
	r := doc.RootElem()
	if r == nil || r.Child("updateFields") != nil {
		return
	}
	u := ooxml.NewW(r, "updateFields")
	u.SetAttr("val", "true")
	at := len(r.Children)
	for i, c := range r.Children {
		if c.Kind == ooxml.ElemNode && afterUpdateFields[c.Local] {
			at = i
			break
		}
	}
	r.InsertAt(at, u)
}
