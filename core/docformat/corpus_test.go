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

const corpusDir = "../../testdata/docformat"

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
	{"aspose-Asian_typography.docx", DOCX, nil, DOCX, nil},
	{"poi-45690.docm", DOCX, nil, DOCX, nil}, // macro-enabled counts as docx
	{"tika-testAltChunkHTML.docx", DOCX, nil, DOCX, nil},
	{"poi-Word6.doc", DOC, nil, DOC, nil},
	{"abiword-Word97Test.doc", DOC, nil, DOC, nil},
	{"poi-Bug45473.doc", DOC, nil, DOC, nil},
	{"odftoolkit-table.odt", ODT, nil, ODT, nil},
	{"phpword-reader.odt", DOCX, nil, ODT, nil}, // mimetype not first: tentative docx, verified odt
	{"pandoc-footnote.rtf", RTF, nil, RTF, nil},
	{"rtfpipe-phprtflite-nested_tables.rtf", RTF, nil, RTF, nil},
	{"libreoffice-table-rtl.rtf", RTF, nil, RTF, nil},
	// structurally valid, defects for later stages to survive
	{"pandoc-table_nested_malformed_itap.rtf", RTF, nil, RTF, nil},
	{"poi-ExternalEntityInText.docx", DOCX, nil, DOCX, nil},
	// wrong extension: decided by content
	{"poi-cpansearch.perl.org_src_tobyink_acme-rundoc-0.001_word-lib_hello_world.docm", DOC, nil, DOC, nil},
	{"tika-testWORDML_tableInsideParagraph.doc", WordML, nil, WordML, nil},
	// refused
	{"aspose-Get_Document_Properties.doc", "", ErrUnsupported, "", ErrUnsupported}, // zero bytes
	{"tika-testODTnotaZipFile.odt", "", ErrUnsupported, "", ErrUnsupported},
	{"aspose-Corrupted_document.docx", DOCX, nil, "", ErrCorrupt},
	{"poi-clusterfuzz-testcase-minimized-POIXWPFFuzzer-4959857092198400.docx", DOCX, nil, "", ErrCorrupt},
	{"poi-truncated62886.docx", DOCX, nil, "", ErrCorrupt},
	{"odftoolkit-testInvalidPkg1.odt", DOCX, nil, "", ErrCorrupt},
	{"odftoolkit-testInvalidPkg3.odt", ODT, nil, "", ErrCorrupt},
	{"rtfpipe-RtfParserTest_fail_3.rtf", RTF, nil, "", ErrCorrupt},
	{"wordextractor-badfile-01-bad-header.doc", DOC, nil, "", ErrCorrupt},
	{"tika-testODTEncrypted.odt", ODT, nil, "", ErrEncrypted},
	{"poi-bug53475-password-is-pass.docx", DOC, nil, "", ErrEncrypted}, // OLE2 EncryptedPackage
	{"poi-password_tika_binaryrc4.doc", DOC, nil, "", ErrEncrypted},    // FIB fEncrypted
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

// Every corpus file must be listed in PROVENANCE.tsv and tested above.
func TestCorpusIsAccountedFor(t *testing.T) {
	entries, err := os.ReadDir(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	prov, err := os.ReadFile(filepath.Join(corpusDir, "PROVENANCE.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	tested := map[string]bool{}
	for _, c := range corpusCases {
		tested[c.file] = true
	}
	for _, e := range entries {
		name := e.Name()
		if name == "PROVENANCE.tsv" {
			continue
		}
		if !tested[name] {
			t.Errorf("%s is not tested", name)
		}
		if !strings.Contains("\n"+string(prov), "\n"+name+"\t") {
			t.Errorf("%s has no provenance line", name)
		}
	}
}

// Hostile input must give a format or an error, never a panic or a hang:
// mutate corpus files byte by byte, deterministically.
func TestMutatedCorpus(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, name := range []string{"poi-Word6.doc", "odftoolkit-table.odt", "tika-testAltChunkHTML.docx", "pandoc-footnote.rtf", "poi-bug53475-password-is-pass.docx"} {
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
