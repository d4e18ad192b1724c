package pool

import (
	"bytes"
	"strings"
	"testing"
)

// Field instructions that would make LibreOffice read a local file are
// emptied however they are spelled; harmless fields and remote includes
// are left as they are.
func TestNeutralizeRTFFields(t *testing.T) {
	const target = "secret-target"
	unsafe := []string{
		`{\field{\*\fldinst { INCLUDEPICTURE "file:///tmp/secret-target.png" \\d }}{\fldrslt { }}}`,
		`{\field{\*\fldinst INCLUDEPICTURE "/tmp/secret-target.png"}{\fldrslt x}}`,
		`{\field{\*\fldinst INCLUDEPICTURE secret-target.png}{\fldrslt x}}`, // relative to the document
		`{\field{\*\fldinst INCLUDETEXT "C:\\\\secret-target.doc"}{\fldrslt x}}`,
		`{\field{\*\fldinst INCLUDEPICTURE "\\\\\\\\host\\\\secret-target.png"}{\fldrslt x}}`,
		`{\field{\fldinst INCLUDEPICTURE "file:///secret-target"}{\fldrslt x}}`,         // without \*
		`{\field{\f1\fs20\fldinst INCLUDEPICTURE "file:///secret-target"}{\fldrslt x}}`, // not first
		`{\field{\*\fldinst {INCLUDE}{PICTURE "file:///secret-target"}}{\fldrslt x}}`,   // split
		`{\field{\*\fldinst INCLUDE\b PICTURE "file:///secret-target"}{\fldrslt x}}`,    // control word inside
		`{\field{\*\fldinst \'49NCLUDEPICTURE "file:///secret-target"}{\fldrslt x}}`,    // hex
		`{\field{\*\fldinst \u73?NCLUDEPICTURE "file:///secret-target"}{\fldrslt x}}`,   // unicode
		`{\field{\*\fldinst {\*\x HYPERLINK }INCLUDEPICTURE "file:///secret-target"}}`,  // ignorable decoy
		`{\field{\*\fldinst {\*\x INCLUDEPICTURE "file:///secret-target"}}}`,            // the other reading
		`{\field{\*\fldinst INCLUDEPICTURE "http://x/../../" "file:///secret-target"}}`, // http first, but both readings see it
		`{\field{\*\fldinst LINK Word.Document.8 "/tmp/secret-target.doc" "" \\a}{\fldrslt x}}`,
		`{\field{\*\fldinst DDEAUTO Excel "/tmp/secret-target.xls" "R1C1"}{\fldrslt x}}`,
		`{\field{\*\fldinst IMPORT /tmp/secret-target.wmf}{\fldrslt x}}`,
		`{\field{\*\fldinst DATABASE \\d "/tmp/secret-target.mdb"}{\fldrslt x}}`,
		`{\field{\*\fldinst includepicture "file:///secret-target"}{\fldrslt x}}`, // lower case
		`{\field{\*\fldinst INCLUDEPICTURE "file:///secret-target"`,               // unclosed at the end
	}
	for _, field := range unsafe {
		doc := `{\rtf1\ansi before ` + field + ` after\par}`
		got := string(neutralizedRTF([]byte(doc)))
		if strings.Contains(got, target) {
			t.Errorf("not neutralized: %s\n  -> %s", field, got)
		}
		if !strings.Contains(got, "before") {
			t.Errorf("text before the field lost: %s", got)
		}
		if strings.HasSuffix(field, "}") && !strings.Contains(got, "after") {
			t.Errorf("text after the field lost: %s", got)
		}
		if strings.Count(got, "{")-strings.Count(got, `\{`) != strings.Count(got, "}")-strings.Count(got, `\}`) && strings.HasSuffix(field, "}") {
			t.Errorf("braces unbalanced: %s", got)
		}
	}
	safe := []string{
		`{\field{\*\fldinst { HYPERLINK "file:///tmp/secret-target" }}{\fldrslt {a link}}}`,
		`{\field{\*\fldinst { INCLUDEPICTURE "http://example.com/secret-target.png" \\d }}{\fldrslt { }}}`,
		`{\field{\*\fldinst PAGE \\* MERGEFORMAT}{\fldrslt 1}} secret-target`,
		`{\pict\pngblip\bin4 {{{{} secret-target`, // braces inside \bin data
		`{\*\fldinst} secret-target`,
	}
	for _, field := range safe {
		doc := []byte(`{\rtf1\ansi before ` + field + ` after\par}`)
		if got := neutralizedRTF(doc); !bytes.Equal(got, doc) {
			t.Errorf("changed a harmless field: %s\n  -> %s", field, got)
		}
	}
}
