package docformat

import (
	"fmt"
	"io"
)

// Limits bound what VerifyPackage accepts from a zip package.
type Limits struct {
	MaxUnpacked int64   // declared uncompressed total of all entries
	MaxXMLPart  int64   // declared uncompressed size of one XML entry (.xml, .rels)
	MaxEntries  int     // entries in the zip directory
	MaxRatio    float64 // uncompressed/compressed of one large entry
	RatioFloor  int64   // entries smaller than this are not ratio-checked
}

// The limits on a zip package. They are generous for real documents (the
// corpus peaks at a ratio of 79 for an 8 MB content.xml; a 500-page report's
// document.xml is about 10 MB; a real 1 MB .odt converts to a 66 MB
// document.xml) and stop zip bombs, which reach ~1000. They also bound what
// an accepted upload can expand to, so that memory is bounded by design: no
// XML part over 128 MB (the parts the engine parses), and no more than
// 512 MB unpacked in all (a 50 MB input of text at about 10:1; media are
// copied, not held). A 2.8 MB .docx whose document.xml unpacks to 200 MB
// (73:1, under the ratio limit) is refused at upload with 422. The host's package reader
// (adapters/ooxml) counts what it really inflates against these same
// constants, and the LibreOffice converter checks its input with them.
const (
	MaxUnpacked = 512 << 20 // declared uncompressed total of all entries
	MaxXMLPart  = 128 << 20 // declared uncompressed size of one XML entry (.xml, .rels)
	MaxEntries  = 10000     // entries in the zip directory
	MaxRatio    = 200       // uncompressed/compressed of one large entry (XML: 5-30)
	RatioFloor  = 4 << 20   // entries smaller than this are not ratio-checked
)

// DefaultLimits are the limits above, as VerifyPackage applies them.
var DefaultLimits = Limits{
	MaxUnpacked: MaxUnpacked,
	MaxXMLPart:  MaxXMLPart,
	MaxEntries:  MaxEntries,
	MaxRatio:    MaxRatio,
	RatioFloor:  RatioFloor,
}

// VerifyPackage checks a whole stored file with DefaultLimits; see
// VerifyPackageLimits.
func VerifyPackage(r io.ReaderAt, size int64) (Format, error) {
	return VerifyPackageLimits(r, size, DefaultLimits)
}

// VerifyPackageLimits confirms the format of a whole stored file and refuses
// what cannot be translated. For zips it reads the central directory and the
// few small parts that name the main document; for OLE2 files the compound
// file directory and the Word header; for RTF it checks that groups close.
// archive/zip also refuses, when parts are read later, any entry that
// inflates past its declared size, so the declared sizes checked here bind.
func VerifyPackageLimits(r io.ReaderAt, size int64, lim Limits) (Format, error) {
	head := make([]byte, min(size, SniffSize))
	if n, err := r.ReadAt(head, 0); n < len(head) {
		return "", fmt.Errorf("reading document: %w", err)
	}
	f, err := Sniff(head)
	if err != nil {
		return "", err
	}
	switch f {
	case DOCX, ODT:
		f, err = verifyZip(r, size, lim)
	case DOC:
		f, err = verifyOLE2(r, size)
	case RTF:
		err = verifyRTF(io.NewSectionReader(r, 0, size))
	}
	if err != nil {
		return "", err
	}
	return f, nil
}
