package rtltest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// PythonWithLXML finds a python3 that imports lxml (the brief's checker,
// check_rtl.py, needs it): DRAGOMAN_PYTHON, else the first python3 of
// PATH's folders that has it. The test fails without one.
func PythonWithLXML(t testing.TB) string {
	t.Helper()
	cands := []string{os.Getenv("DRAGOMAN_PYTHON")}
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		cands = append(cands, filepath.Join(d, "python3"))
	}
	for _, c := range cands {
		if c == "" {
			continue
		}
		if exec.Command(c, "-c", "import lxml.etree").Run() == nil {
			return c
		}
	}
	t.Fatal("no python3 with lxml on PATH (apt-get install python3-lxml, or set DRAGOMAN_PYTHON)")
	return ""
}
