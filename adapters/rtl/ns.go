package rtl

import "github.com/dragoman-translate/dragoman/adapters/ooxml"

// node is an element of a parsed part: the package model's tree.
type node = ooxml.Node

// Namespaces the adapter reads or writes.
const (
	nsW           = ooxml.NSW
	nsWStrict     = ooxml.NSWStrict
	nsWP          = "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
	nsWPStrict    = "http://purl.oclc.org/ooxml/drawingml/wordprocessingDrawing"
	nsMC          = "http://schemas.openxmlformats.org/markup-compatibility/2006"
	nsV           = "urn:schemas-microsoft-com:vml"
	nsO           = "urn:schemas-microsoft-com:office:office"
	nsA           = "http://schemas.openxmlformats.org/drawingml/2006/main"
	nsAStrict     = "http://purl.oclc.org/ooxml/drawingml/main"
	nsPic         = "http://schemas.openxmlformats.org/drawingml/2006/picture"
	nsPicStrict   = "http://purl.oclc.org/ooxml/drawingml/picture"
	nsChart       = "http://schemas.openxmlformats.org/drawingml/2006/chart"
	nsChartStrict = "http://purl.oclc.org/ooxml/drawingml/chart"
	nsDgm         = "http://schemas.openxmlformats.org/drawingml/2006/diagram"
	nsDgmStrict   = "http://purl.oclc.org/ooxml/drawingml/diagram"
	nsMath        = "http://schemas.openxmlformats.org/officeDocument/2006/math"
	nsMathStrict  = "http://purl.oclc.org/ooxml/officeDocument/math"
	nsW14         = "http://schemas.microsoft.com/office/word/2010/wordml"
)
