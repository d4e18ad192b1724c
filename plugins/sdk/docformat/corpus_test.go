package docformat

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const corpusDir = "../../../testdata/corpus"

// Real documents from public projects' test suites (see PROVENANCE.tsv).
// sniff is the early answer from the first bytes, verify the final one.
var corpusCases = []struct {
	file      string
	sniff     Format
	sniffErr  error
	verify    Format
	verifyErr error
}{
	// good documents of every format
	{"docx/aspose-Asian_typography.docx", DOCX, nil, DOCX, nil},
	{"docx/poi-45690.docm", DOCX, nil, DOCX, nil}, // macro-enabled counts as docx
	{"docx/tika-testAltChunkHTML.docx", DOCX, nil, DOCX, nil},
	{"doc/poi-Word6.doc", DOC, nil, DOC, nil},
	{"doc/abiword-Word97Test.doc", DOC, nil, DOC, nil},
	{"rtl/poi-Bug45473.doc", DOC, nil, DOC, nil},
	{"odt/odftoolkit-table.odt", ODT, nil, ODT, nil},
	{"odt/phpword-reader.odt", DOCX, nil, ODT, nil}, // mimetype not first: tentative docx, verified odt
	{"rtf/pandoc-footnote.rtf", RTF, nil, RTF, nil},
	{"rtf/rtfpipe-phprtflite-nested_tables.rtf", RTF, nil, RTF, nil},
	{"rtl/libreoffice-table-rtl.rtf", RTF, nil, RTF, nil},
	// structurally valid, defects for later stages to survive
	{"bad/pandoc-table_nested_malformed_itap.rtf", RTF, nil, RTF, nil},
	{"bad/poi-ExternalEntityInText.docx", DOCX, nil, DOCX, nil},
	// wrong extension: decided by content
	{"bad/poi-cpansearch.perl.org_src_tobyink_acme-rundoc-0.001_word-lib_hello_world.docm", DOC, nil, DOC, nil},
	{"bad/tika-testWORDML_tableInsideParagraph.doc", WordML, nil, WordML, nil},
	// refused
	{"bad/aspose-Get_Document_Properties.doc", "", ErrUnsupported, "", ErrUnsupported}, // zero bytes
	{"bad/tika-testODTnotaZipFile.odt", "", ErrUnsupported, "", ErrUnsupported},
	{"bad/aspose-Corrupted_document.docx", DOCX, nil, "", ErrCorrupt},
	{"bad/poi-clusterfuzz-testcase-minimized-POIXWPFFuzzer-4959857092198400.docx", DOCX, nil, "", ErrCorrupt},
	{"bad/poi-truncated62886.docx", DOCX, nil, "", ErrCorrupt},
	{"bad/odftoolkit-testInvalidPkg1.odt", DOCX, nil, "", ErrCorrupt},
	{"bad/odftoolkit-testInvalidPkg3.odt", ODT, nil, "", ErrCorrupt},
	{"bad/rtfpipe-RtfParserTest_fail_3.rtf", RTF, nil, "", ErrCorrupt},
	{"bad/wordextractor-badfile-01-bad-header.doc", DOC, nil, "", ErrCorrupt},
	{"bad/tika-testODTEncrypted.odt", ODT, nil, "", ErrEncrypted},
	{"bad/poi-bug53475-password-is-pass.docx", DOC, nil, "", ErrEncrypted}, // OLE2 EncryptedPackage
	{"bad/poi-password_tika_binaryrc4.doc", DOC, nil, "", ErrEncrypted},    // FIB fEncrypted
}

func TestCorpus(t *testing.T) {
	for _, c := range corpusCases {
		t.Run(c.file, func(t *testing.T) {
			f, err := os.Open(filepath.Join(corpusDir, c.file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			st, err := f.Stat()
			if err != nil {
				t.Fatal(err)
			}
			head := make([]byte, SniffSize)
			n, _ := f.ReadAt(head, 0)

			got, err := Sniff(head[:n])
			if got != c.sniff || !errors.Is(err, c.sniffErr) || (c.sniffErr == nil) != (err == nil) {
				t.Errorf("Sniff = %q, %v; want %q, %v", got, err, c.sniff, c.sniffErr)
			}
			got, err = VerifyPackage(f, st.Size())
			if got != c.verify || !errors.Is(err, c.verifyErr) || (c.verifyErr == nil) != (err == nil) {
				t.Errorf("VerifyPackage = %q, %v; want %q, %v", got, err, c.verify, c.verifyErr)
			}
		})
	}
}

// Every document tested above has a provenance line.
func TestCorpusIsAccountedFor(t *testing.T) {
	prov, err := os.ReadFile(filepath.Join(corpusDir, "PROVENANCE.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range corpusCases {
		if !strings.Contains("\n"+string(prov), "\n"+c.file+"\t") {
			t.Errorf("%s has no provenance line", c.file)
		}
	}
}

// Hostile input must give a format or an error, never a panic or a hang:
// mutate corpus files byte by byte, deterministically.
func TestMutatedCorpus(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, name := range []string{"doc/poi-Word6.doc", "odt/odftoolkit-table.odt", "docx/tika-testAltChunkHTML.docx", "rtf/pandoc-footnote.rtf", "bad/poi-bug53475-password-is-pass.docx"} {
		orig, err := os.ReadFile(filepath.Join(corpusDir, name))
		if err != nil {
			t.Fatal(err)
		}
		for range 400 {
			data := bytes.Clone(orig)
			for range 1 + rng.IntN(8) {
				data[rng.IntN(len(data))] = byte(rng.IntN(256))
			}
			if rng.IntN(4) == 0 {
				data = data[:rng.IntN(len(data))]
			}
			format, err := VerifyPackage(bytes.NewReader(data), int64(len(data)))
			if (format == "") == (err == nil) {
				t.Fatalf("%s mutated: VerifyPackage = %q, %v: exactly one must be set", name, format, err)
			}
		}
	}
}
