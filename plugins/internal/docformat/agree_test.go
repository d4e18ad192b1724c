package docformat

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	host "github.com/dragoman-translate/dragoman/core/docformat"
)

// The converter's copy must judge every corpus file as the host does at
// upload: the same format, or the same refusal. Otherwise a file the host
// accepted could be refused by the converter, or the reverse.
func TestAgreesWithTheHostVerifier(t *testing.T) {
	files, _ := filepath.Glob("../../../testdata/corpus/*/*")
	if len(files) < 100 {
		t.Fatalf("only %d corpus files", len(files))
	}
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		st, err := f.Stat()
		if err != nil || st.IsDir() {
			f.Close()
			continue
		}
		a, errA := VerifyPackage(f, st.Size())
		b, errB := host.VerifyPackage(f, st.Size())
		f.Close()
		if string(a) != string(b) || (errA == nil) != (errB == nil) ||
			(errA != nil && errA.Error() != errB.Error()) ||
			errors.Is(errA, ErrEncrypted) != errors.Is(errB, host.ErrEncrypted) ||
			errors.Is(errA, ErrUnsupported) != errors.Is(errB, host.ErrUnsupported) ||
			errors.Is(errA, ErrCorrupt) != errors.Is(errB, host.ErrCorrupt) ||
			errors.Is(errA, ErrTooLarge) != errors.Is(errB, host.ErrTooLarge) {
			t.Errorf("%s: %q, %v here; %q, %v in core/docformat", name, a, errA, b, errB)
		}
	}
	for _, f := range []Format{DOC, DOCX, ODT, RTF, WordML} {
		if string(f) != string(map[Format]host.Format{DOC: host.DOC, DOCX: host.DOCX, ODT: host.ODT, RTF: host.RTF, WordML: host.WordML}[f]) {
			t.Errorf("format %q differs from core/docformat", f)
		}
	}
}
