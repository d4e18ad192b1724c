package ooxml

import (
	"archive/zip"
	"fmt"
	"io"

	"github.com/dragoman-translate/dragoman/plugins/sdk/docformat"
)

// Limits against zip bombs. Open checks the central directory (declared
// sizes); parts are then streamed and the bytes really inflated are counted
// against the same numbers, whatever a header says. They are the upload
// check's (plugins/sdk/docformat, which says why these values), so the two
// cannot refuse different packages.
const (
	MaxEntries  = docformat.MaxEntries
	MaxUnpacked = docformat.MaxUnpacked
	MaxXMLPart  = docformat.MaxXMLPart
	MaxRatio    = docformat.MaxRatio
	RatioFloor  = docformat.RatioFloor
	MaxPartSize = MaxUnpacked // one other part read (media entries are copied, not read)
)

// checkDirectory refuses a package whose directory announces a bomb.
func checkDirectory(zr *zip.Reader) error {
	if len(zr.File) > MaxEntries {
		return fmt.Errorf("%w: %d zip entries, over the %d limit", ErrInvalid, len(zr.File), MaxEntries)
	}
	var total uint64
	for _, f := range zr.File {
		total += f.UncompressedSize64
		if total > MaxUnpacked {
			return fmt.Errorf("%w: package expands to more than %d bytes", ErrInvalid, MaxUnpacked)
		}
		if docformat.IsXMLPart(f.Name) && f.UncompressedSize64 > MaxXMLPart {
			return fmt.Errorf("%w: XML part %s unpacks to %d MB, over the %d MB limit", ErrInvalid, f.Name, f.UncompressedSize64>>20, MaxXMLPart>>20)
		}
		if f.UncompressedSize64 >= RatioFloor && f.UncompressedSize64 > MaxRatio*max(f.CompressedSize64, 1) {
			return fmt.Errorf("%w: part %s compresses %d:1, a zip bomb", ErrInvalid, f.Name, f.UncompressedSize64/max(f.CompressedSize64, 1))
		}
	}
	return nil
}

// limited counts what is really decompressed, whatever the header says.
type limited struct {
	rc   io.ReadCloser
	p    *Package
	name string
	left int64
	max  int64 // left at the start
}

func (l *limited) Read(b []byte) (int, error) {
	n, err := l.rc.Read(b)
	l.left -= int64(n)
	l.p.read += int64(n)
	if l.left < 0 {
		return n, fmt.Errorf("%w: part %s is larger than %d bytes", ErrInvalid, l.name, l.max)
	}
	if l.p.read > MaxUnpacked {
		return n, fmt.Errorf("%w: package expands to more than %d bytes", ErrInvalid, MaxUnpacked)
	}
	if err != nil && err != io.EOF {
		err = fmt.Errorf("%w: part %s: %v", ErrInvalid, l.name, err)
	}
	return n, err
}

func (l *limited) Close() error { return l.rc.Close() }
