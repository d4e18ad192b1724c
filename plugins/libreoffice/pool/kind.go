package pool

// Kind says how LibreOffice must read an input: the file extension it is
// given and the import filters it may pick. A file that LibreOffice reads
// with any other filter (garbage opens fine as plain text) is refused.
type Kind struct {
	Name    string
	Ext     string
	Filters []string
}

var (
	// Word is a Word 6 to 2003 binary (.doc), read by the ww8 filters.
	Word = Kind{Name: "doc", Ext: "doc", Filters: []string{"MS Word 97", "MS Word 95", "MS WinWord 6.0", "MS WinWord 5"}}
	// ODT is an OpenDocument text package.
	ODT = Kind{Name: "odt", Ext: "odt", Filters: []string{"writer8"}}
	// RTF is Rich Text Format.
	RTF = Kind{Name: "rtf", Ext: "rtf", Filters: []string{"Rich Text Format"}}
	// WordML is Word 2003 XML (WordprocessingML), often saved as .doc.
	WordML = Kind{Name: "wordml", Ext: "xml", Filters: []string{"MS Word 2003 XML"}}
)

// Sources are the kinds the converter turns into .docx; each Name is the
// format's name in plugins/sdk/docformat, so the converter finds the kind
// of a sniffed document and lists its formats from here.
var Sources = []Kind{Word, ODT, RTF, WordML}
