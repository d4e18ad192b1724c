package docx_test

import (
	"os"
	"path/filepath"
)

// The shared test corpus (testdata/corpus): its docx/ folder and the
// Office Open XML documents of its rtl/ folder.
const corpusDir = "../../testdata/corpus"

// corpusDocs lists every .docx/.docm of the corpus's docx/ and rtl/ folders.
func corpusDocs() []string {
	var files []string
	for _, dir := range []string{"docx", "rtl"} {
		m, _ := filepath.Glob(filepath.Join(corpusDir, dir, "*.doc[xm]"))
		files = append(files, m...)
	}
	return files
}

// doc is the path of a corpus document, which lives in docx/ or rtl/.
func doc(name string) string {
	p := filepath.Join(corpusDir, "docx", name)
	if _, err := os.Stat(p); err != nil {
		return filepath.Join(corpusDir, "rtl", name)
	}
	return p
}
