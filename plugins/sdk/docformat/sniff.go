package docformat

import (
	"bytes"
	"encoding/binary"
	"strings"
	"unicode"
)

var (
	zipMagic  = []byte("PK\x03\x04")
	ole2Magic = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}
	utf8BOM   = []byte{0xEF, 0xBB, 0xBF}
)

const (
	odfText         = "application/vnd.oasis.opendocument.text"
	odfTextTemplate = "application/vnd.oasis.opendocument.text-template"
	odfPrefix       = "application/vnd.oasis.opendocument."
	wordML2003NS    = "http://schemas.microsoft.com/office/word/2003/wordml"
)

// Sniff decides the format from the first bytes of a file (SniffSize is
// enough). A zip whose first entry is not an ODF mimetype is reported as
// DOCX tentatively; VerifyPackage confirms it once the file is stored.
func Sniff(head []byte) (Format, error) {
	if len(head) == 0 {
		return "", unsupported("the file is empty")
	}
	switch {
	case bytes.HasPrefix(head, zipMagic):
		return sniffZip(head)
	case bytes.HasPrefix(head, ole2Magic):
		return DOC, nil
	}
	text := bytes.TrimLeftFunc(bytes.TrimPrefix(head, utf8BOM), unicode.IsSpace)
	switch {
	case bytes.HasPrefix(text, []byte(`{\rtf`)):
		return RTF, nil
	case bytes.HasPrefix(text, []byte("<")):
		return sniffXML(text)
	}
	return "", unsupported("%s; accepted are %s documents", describe(head), ListExtensions("and"))
}

// sniffZip reads the first local file header: ODF packages must start with
// an uncompressed "mimetype" entry naming their media type.
func sniffZip(head []byte) (Format, error) {
	if len(head) < 30 {
		return "", corrupt("truncated zip header")
	}
	method := binary.LittleEndian.Uint16(head[8:])
	csize := int(binary.LittleEndian.Uint32(head[18:]))
	nameLen := int(binary.LittleEndian.Uint16(head[26:]))
	extraLen := int(binary.LittleEndian.Uint16(head[28:]))
	if 30+nameLen > len(head) || string(head[30:30+nameLen]) != "mimetype" || method != 0 {
		return DOCX, nil
	}
	start := 30 + nameLen + extraLen
	if flags := binary.LittleEndian.Uint16(head[6:]); flags&0x8 != 0 && csize == 0 {
		// Sizes in a data descriptor after the data (streaming zip
		// writers): the stored media type runs up to the descriptor's
		// signature (or, without one, the next entry's header).
		if start > len(head) {
			return "", corrupt("truncated zip header")
		}
		rest := head[start:]
		csize = len(rest)
		for _, sig := range []string{"PK\x07\x08", "PK\x03\x04"} {
			if i := bytes.Index(rest, []byte(sig)); i >= 0 && i < csize {
				csize = i
			}
		}
	}
	end := min(start+csize, len(head))
	if start > end {
		return "", corrupt("truncated zip header")
	}
	return odfMediaType(string(head[start:end]))
}

// odfMediaType maps the content of an ODF "mimetype" entry to a format.
func odfMediaType(mt string) (Format, error) {
	mt = strings.TrimSpace(mt)
	switch {
	case mt == odfText || mt == odfTextTemplate:
		return ODT, nil
	case strings.HasPrefix(mt, odfPrefix):
		return "", unsupported("OpenDocument %s; only text documents (.odt) are accepted", printable(strings.TrimPrefix(mt, odfPrefix)))
	case isMediaType(mt):
		return "", unsupported("a zip package of type %s", printable(mt))
	}
	return "", corrupt("invalid OpenDocument package: the mimetype entry does not hold a media type")
}

func sniffXML(text []byte) (Format, error) {
	switch {
	case bytes.Contains(text, []byte("<w:wordDocument")) || bytes.Contains(text, []byte(wordML2003NS)):
		return WordML, nil
	case bytes.Contains(text, []byte(`office:mimetype="`+odfText+`"`)):
		return "", unsupported("flat OpenDocument XML (.fodt); save it as .odt")
	case bytes.Contains(bytes.ToLower(text[:min(len(text), 512)]), []byte("<html")):
		return "", unsupported("an HTML page; accepted are %s documents", ListExtensions("and"))
	}
	return "", unsupported("an XML file that is not a Word document")
}

// describe names common non-document content for a clearer error.
func describe(head []byte) string {
	known := []struct{ magic, name string }{
		{"%PDF-", "a PDF file"},
		{"\x89PNG", "a PNG image"},
		{"\xFF\xD8\xFF", "a JPEG image"},
		{"GIF8", "a GIF image"},
		{"PK\x05\x06", "an empty zip archive"},
		{"Rar!", "a RAR archive"},
		{"\x1F\x8B", "a gzip archive"},
		{"7z\xBC\xAF", "a 7-Zip archive"},
	}
	for _, k := range known {
		if bytes.HasPrefix(head, []byte(k.magic)) {
			return k.name
		}
	}
	return "the content is not a known document format"
}

func isMediaType(s string) bool {
	typ, sub, ok := strings.Cut(s, "/")
	if !ok || typ == "" || sub == "" || len(s) > 200 {
		return false
	}
	for _, r := range s {
		if r <= ' ' || r > '~' {
			return false
		}
	}
	return true
}

// printable keeps untrusted text safe for an error message.
func printable(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f || r == unicode.ReplacementChar {
			return -1
		}
		return r
	}, s)
	if r := []rune(s); len(r) > 80 {
		s = string(r[:80]) + "…"
	}
	return s
}
