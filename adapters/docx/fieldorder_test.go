package docx_test

import (
	"archive/zip"
	"bytes"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// reverse is an engine that turns each segment back to front, moving
// isolated codes with their neighbours and paired groups as wholes.
func reverse(src string) string {
	toks := tagged.Tokenize(src)
	var items [][]tagged.Token
	for i := 0; i < len(toks); {
		j := i
		if toks[i].Kind == tagged.Open {
			for depth := 0; j < len(toks); j++ {
				if toks[j].Kind == tagged.Open {
					depth++
				} else if toks[j].Kind == tagged.Close {
					if depth--; depth == 0 {
						break
					}
				}
			}
		}
		items = append(items, toks[i:j+1])
		i = j + 1
	}
	slices.Reverse(items)
	return tagged.Render(slices.Concat(items...))
}

var fldChar = regexp.MustCompile(`w:fldCharType="(begin|separate|end)"`)

// fieldsNest reports whether every complex field of a part runs begin,
// (separate,) end, nested properly.
func fieldsNest(xml []byte) bool {
	var stack []bool // per open field: separated yet?
	for _, m := range fldChar.FindAllSubmatch(xml, -1) {
		n := len(stack)
		switch string(m[1]) {
		case "begin":
			stack = append(stack, false)
		case "separate":
			if n == 0 || stack[n-1] {
				return false
			}
			stack[n-1] = true
		case "end":
			if n == 0 {
				return false
			}
			stack = stack[:n-1]
		}
	}
	return len(stack) == 0
}

func partsOf(t *testing.T, docx []byte) map[string][]byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(docx), int64(len(docx)))
	if err != nil {
		t.Fatal(err)
	}
	parts := map[string][]byte{}
	for _, f := range zr.File {
		if strings.HasSuffix(f.Name, ".xml") {
			rc, _ := f.Open()
			parts[f.Name], _ = io.ReadAll(rc)
			rc.Close()
		}
	}
	return parts
}

// An engine that reorders words may carry a field's end before its begin
// (LibreOffice then refuses the whole document): the assembler puts the
// field characters back in source order, and says so.
func TestReorderedFieldsKeepTheirOrder(t *testing.T) {
	fixed := 0
	for _, path := range corpusDocs() {
		src, out, warns := assemble(t, path, reverse)
		srcParts, outParts := partsOf(t, src), partsOf(t, out)
		for name, x := range outParts {
			if fieldsNest(srcParts[name]) && !fieldsNest(x) {
				t.Errorf("%s %s: fields out of order", filepath.Base(path), name)
			}
		}
		if strings.Contains(strings.Join(warns, "\n"), "order was restored") {
			fixed++
		}
	}
	if fixed == 0 {
		t.Error("no document needed its fields reordered: the test proves nothing")
	}
	t.Logf("%d documents had field order restored", fixed)
}
