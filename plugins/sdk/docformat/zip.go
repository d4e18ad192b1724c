package docformat

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"path"
	"strings"
)

// maxSmallPart caps the parts read to identify a package ([Content_Types].xml,
// _rels/.rels, mimetype, manifest.xml).
const maxSmallPart = 4 << 20

func verifyZip(r io.ReaderAt, size int64, lim Limits) (Format, error) {
	zr, err := zip.NewReader(r, size)
	if errors.Is(err, zip.ErrInsecurePath) {
		return "", corrupt("zip entry names escape the package")
	}
	if err != nil {
		return "", corrupt("damaged or truncated zip: %v", err)
	}
	if err := checkNames(zr); err != nil {
		return "", err
	}
	if err := checkBomb(zr, lim); err != nil {
		return "", err
	}
	files := make(map[string]*zip.File, len(zr.File))
	for _, f := range zr.File {
		files[f.Name] = f
	}
	switch {
	case files["[Content_Types].xml"] != nil:
		return DOCX, verifyOOXML(files)
	case files["mimetype"] != nil || files["META-INF/manifest.xml"] != nil:
		return ODT, verifyODF(files)
	}
	return "", unsupported("a zip archive that is not a Word or OpenDocument document")
}

func checkBomb(zr *zip.Reader, lim Limits) error {
	if len(zr.File) > lim.MaxEntries {
		return tooLarge("%d zip entries (limit %d)", len(zr.File), lim.MaxEntries)
	}
	var total uint64
	for _, f := range zr.File {
		total += f.UncompressedSize64
		if total > uint64(lim.MaxUnpacked) {
			return tooLarge("more than %d bytes uncompressed", lim.MaxUnpacked)
		}
		if lim.MaxXMLPart > 0 && IsXMLPart(f.Name) && f.UncompressedSize64 > uint64(lim.MaxXMLPart) {
			return tooLarge("XML part %q unpacks to %d MB (limit %d MB)", printable(f.Name), f.UncompressedSize64>>20, lim.MaxXMLPart>>20)
		}
		if f.UncompressedSize64 >= uint64(lim.RatioFloor) &&
			float64(f.UncompressedSize64) > lim.MaxRatio*float64(max(f.CompressedSize64, 1)) {
			return tooLarge("entry %q compresses %d:1", printable(f.Name), f.UncompressedSize64/max(f.CompressedSize64, 1))
		}
	}
	return nil
}

// checkNames refuses entry names that could write outside a folder when
// a package is unpacked (absolute, with a drive letter, "..", a backslash,
// a control character) and names given twice. Part names are compared
// case-insensitively, as OPC says (ECMA-376 Part 2, 9.1.1.1): a reader
// that takes the first and a writer that copies both would otherwise send
// a part the checks never read.
func checkNames(zr *zip.Reader) error {
	seen := make(map[string]bool, len(zr.File))
	for _, f := range zr.File {
		name := f.Name
		drive := len(name) > 1 && name[1] == ':' // C:…
		if name == "" || drive || strings.HasPrefix(name, "/") || strings.Contains(name, "\\") ||
			strings.ContainsFunc(name, func(r rune) bool { return r < ' ' || r == 0x7f }) {
			return corrupt("zip entry name %q is not a relative path inside the package", printable(name))
		}
		for _, el := range strings.Split(strings.TrimSuffix(name, "/"), "/") {
			if el == "" || el == "." || el == ".." {
				return corrupt("zip entry name %q is not a relative path inside the package", printable(name))
			}
		}
		key := strings.ToLower(name)
		if seen[key] {
			return corrupt("zip entry %q is in the package twice", printable(name))
		}
		seen[key] = true
	}
	return nil
}

// IsXMLPart says whether a zip entry is XML by its name (.xml, .rels): the
// parts that are parsed and held in memory, unlike media, which are copied.
func IsXMLPart(name string) bool {
	n := strings.ToLower(name)
	return strings.HasSuffix(n, ".xml") || strings.HasSuffix(n, ".rels")
}

const (
	relOfficeDocument       = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument"
	relOfficeDocumentStrict = "http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument"
)

// verifyOOXML finds the main part through _rels/.rels (falling back on
// word/document.xml) and checks that it is a word-processing part.
func verifyOOXML(files map[string]*zip.File) error {
	if files["_rels/.rels"] == nil && files["word/document.xml"] == nil {
		return corrupt("OOXML package without relationships or word/document.xml")
	}
	main := "word/document.xml"
	if f := files["_rels/.rels"]; f != nil {
		data, err := readSmall(f)
		if err != nil {
			return err
		}
		var rels struct {
			Rel []struct {
				Type   string `xml:"Type,attr"`
				Target string `xml:"Target,attr"`
			} `xml:"Relationship"`
		}
		if err := xml.Unmarshal(data, &rels); err != nil {
			return corrupt("unreadable _rels/.rels: %v", err)
		}
		for _, rel := range rels.Rel {
			if rel.Type == relOfficeDocument || rel.Type == relOfficeDocumentStrict {
				main = strings.TrimPrefix(path.Clean("/"+rel.Target), "/")
				break
			}
		}
	}
	if files[main] == nil {
		return corrupt("main document part %q is missing", printable(main))
	}
	ct, err := readSmall(files["[Content_Types].xml"])
	if err != nil {
		return err
	}
	return checkMainContentType(ct, main)
}

// checkMainContentType refuses spreadsheets and presentations, whose main
// part is declared with their own content type.
func checkMainContentType(ct []byte, main string) error {
	var types struct {
		Override []struct {
			PartName    string `xml:"PartName,attr"`
			ContentType string `xml:"ContentType,attr"`
		} `xml:"Override"`
	}
	if err := xml.Unmarshal(ct, &types); err != nil {
		return corrupt("unreadable [Content_Types].xml: %v", err)
	}
	for _, o := range types.Override {
		if !strings.EqualFold(strings.TrimPrefix(o.PartName, "/"), main) {
			continue
		}
		t := strings.ToLower(o.ContentType)
		switch {
		case strings.Contains(t, "wordprocessingml"), strings.Contains(t, "ms-word."):
			return nil
		case strings.Contains(t, "spreadsheetml"), strings.Contains(t, "ms-excel"):
			return unsupported("an Excel workbook; only Word documents are accepted")
		case strings.Contains(t, "presentationml"), strings.Contains(t, "ms-powerpoint"):
			return unsupported("a PowerPoint presentation; only Word documents are accepted")
		}
		return unsupported("an OOXML package whose main part is %s", printable(o.ContentType))
	}
	// No override: trust the relationship, as Word does.
	return nil
}

func verifyODF(files map[string]*zip.File) error {
	if f := files["mimetype"]; f != nil {
		mt, err := readSmall(f)
		if err != nil {
			return err
		}
		if _, err := odfMediaType(string(mt)); err != nil {
			return err
		}
	}
	if f := files["META-INF/manifest.xml"]; f != nil {
		manifest, err := readSmall(f)
		if err != nil {
			return err
		}
		if bytes.Contains(manifest, []byte("encryption-data")) {
			return ErrEncrypted
		}
	}
	if files["content.xml"] == nil {
		return corrupt("invalid OpenDocument package: content.xml is missing")
	}
	return nil
}

// readSmall reads a small identifying part; archive/zip checks its CRC.
func readSmall(f *zip.File) ([]byte, error) {
	if f.UncompressedSize64 > maxSmallPart {
		return nil, tooLarge("part %q is %d bytes", printable(f.Name), f.UncompressedSize64)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, corrupt("cannot open %q: %v", printable(f.Name), err)
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, maxSmallPart+1))
	if err != nil {
		return nil, corrupt("cannot read %q: %v", printable(f.Name), err)
	}
	return data, nil
}
