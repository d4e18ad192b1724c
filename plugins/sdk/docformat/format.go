// Package docformat decides what kind of document a file is from its
// content, never from its name, and refuses files the service must not
// process: unsupported formats, password-protected documents, corrupt or
// truncated packages and zip bombs.
//
// Sniff looks at the first bytes of an upload and answers early; a zip is
// only tentatively DOCX until VerifyPackage has read the stored file's zip
// directory (and OLE2 directory for binary files).
//
// It is the one owner of format detection and its limits: the host's core
// checks uploads with it and the LibreOffice converter checks its input
// with it, so the two cannot judge a file differently. Like every leaf
// package of the SDK it imports nothing but the standard library.
package docformat

import (
	"errors"
	"fmt"
	"strings"
)

// Format is a document format the service can take in.
type Format string

const (
	DOCX   Format = "docx"   // Office Open XML, including .docm and strict OOXML
	DOC    Format = "doc"    // Word 97-2003 / Word 6-95 binary (OLE2)
	ODT    Format = "odt"    // OpenDocument text
	RTF    Format = "rtf"    // Rich Text Format
	WordML Format = "wordml" // Word 2003 XML (single-file WordprocessingML)
)

// Advertised are the formats people are told they may send, in the order
// they are named, with their family and the file extension they know them
// by: the API's description, the dashboard's file picker and the errors
// that list what is accepted come from here. Word 2003 XML is taken but
// not advertised (it is saved as .doc or .xml).
var Advertised = []struct {
	Format
	Family string // "Word"
	Ext    string // ".docx"
}{
	{DOCX, "Word", ".docx"},
	{DOC, "Word", ".doc"},
	{ODT, "OpenDocument", ".odt"},
	{RTF, "RTF", ".rtf"},
}

// Extensions are the advertised formats' extensions, in order.
func Extensions() []string {
	out := make([]string, len(Advertised))
	for i, a := range Advertised {
		out[i] = a.Ext
	}
	return out
}

// ListExtensions names the advertised extensions for a sentence:
// ".docx, .doc, .odt and .rtf" with conjunction "and".
func ListExtensions(conjunction string) string {
	ext := Extensions()
	return strings.Join(ext[:len(ext)-1], ", ") + " " + conjunction + " " + ext[len(ext)-1]
}

// SniffSize is how many leading bytes Sniff wants; fewer work for short files.
const SniffSize = 8 << 10

var (
	// ErrUnsupported: the content is not a supported document format.
	ErrUnsupported = errors.New("unsupported document format")
	// ErrEncrypted: the document is encrypted with a password.
	ErrEncrypted = errors.New("document is password-protected")
	// ErrCorrupt: the document is damaged or truncated.
	ErrCorrupt = errors.New("document is corrupt")
	// ErrTooLarge: the package would unpack to more than the service accepts
	// (zip bomb guard).
	ErrTooLarge = errors.New("document unpacks too large")
)

func unsupported(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrUnsupported, fmt.Sprintf(format, args...))
}

func corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
}

func tooLarge(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrTooLarge, fmt.Sprintf(format, args...))
}
