package signature

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

type vector struct {
	Name   string `json:"name"`
	Secret string `json:"secret"`
	Body   string `json:"body"`
	Header string `json:"header"`
	Valid  bool   `json:"valid"`
}

const dataDir = "../../../testdata/webhook"

func vectors(t testing.TB) []vector {
	b, err := os.ReadFile(filepath.Join(dataDir, "vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var vs []vector
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatal(err)
	}
	if len(vs) < 10 {
		t.Fatalf("only %d vectors", len(vs))
	}
	return vs
}

func TestRecordedVectors(t *testing.T) {
	for _, v := range vectors(t) {
		err := Verify(v.Secret, []byte(v.Body), v.Header)
		if (err == nil) != v.Valid {
			t.Errorf("%s: Verify = %v, want valid=%v", v.Name, err, v.Valid)
		}
		if v.Valid && Sign(v.Secret, []byte(v.Body)) != v.Header {
			t.Errorf("%s: Sign differs from the recorded header", v.Name)
		}
	}
}

func TestVerifyErrors(t *testing.T) {
	secret, body := "s3cret", []byte(`{"id":"1"}`)
	good := Sign(secret, body)
	if !strings.HasPrefix(good, "sha256=") || len(good) != 71 || strings.ToLower(good) != good {
		t.Fatalf("Sign = %q", good)
	}
	for header, want := range map[string]error{
		good:                                  nil,
		"":                                    ErrMissing,
		good[7:]:                              ErrMalformed,
		"sha256=abc":                          ErrMalformed,
		"sha256=" + good[8:]:                  ErrMalformed,
		good[:70] + "0":                       ErrMismatch,
		strings.ToUpper(good):                 ErrMalformed,
		"sha256=" + strings.ToUpper(good[7:]): ErrMismatch,
	} {
		if err := Verify(secret, body, header); !errors.Is(err, want) && !(want == nil && err == nil) {
			t.Errorf("Verify(%q) = %v, want %v", header, err, want)
		}
	}
	if Verify("other", body, good) != ErrMismatch || Verify(secret, append(body, ' '), good) != ErrMismatch {
		t.Error("wrong secret or changed body accepted")
	}
}

// The README's Python and Node examples agree with the recorded vectors.
func TestReadmeExamplesInOtherLanguages(t *testing.T) {
	for _, c := range [][]string{{"python3", "verify.py"}, {"node", "verify.js"}} {
		if _, err := exec.LookPath(c[0]); err != nil {
			t.Fatalf("%s is needed to test the README's example (apt-get install python3 nodejs): %v", c[0], err)
		}
		cmd := exec.Command(c[0], c[1], "vectors.json")
		cmd.Dir = dataDir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("%s %s: %v\n%s", c[0], c[1], err, out)
		}
		if !strings.Contains(string(out), " 0 failures") {
			t.Errorf("%s: %s", c[0], out)
		}
	}
}

func BenchmarkVerify(b *testing.B) {
	body := []byte(strings.Repeat("x", 400)) // the size of a job event
	h := Sign("8c1f2a4be7d9035c6a1e0f9b2d4c7a8e5f3b1d0c9a8e7f6d5c4b3a2918070615", body)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if err := Verify("8c1f2a4be7d9035c6a1e0f9b2d4c7a8e5f3b1d0c9a8e7f6d5c4b3a2918070615", body, h); err != nil {
			b.Fatal(err)
		}
	}
}
