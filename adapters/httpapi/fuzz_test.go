package httpapi

import (
	"bytes"
	"errors"
	"io"
	"mime/multipart"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/adapters/httpguard"
)

const fuzzBoundary = "dragoman-fuzz-boundary"

func formBody(fields [][2]string, file string) []byte {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	mw.SetBoundary(fuzzBoundary)
	for _, f := range fields {
		mw.WriteField(f[0], f[1])
	}
	if file != "" {
		w, _ := mw.CreateFormFile("file", "report.docx")
		io.WriteString(w, file)
	}
	mw.Close()
	return b.Bytes()
}

// FuzzUploadForm feeds the upload's multipart reader arbitrary bodies: it
// never panics or loops, hands over at most one file, keeps fields within
// maxFieldSize, and where the standard library's ReadForm reads the same
// body it agrees on the target language.
func FuzzUploadForm(f *testing.F) {
	f.Add(formBody([][2]string{{"target_lang", "German"}, {"source_lang", " English "}}, "PK\x03\x04 not really"))
	f.Add(formBody([][2]string{{"target_lang", strings.Repeat("x", 300)}, {"extra", "ignored"}}, ""))
	f.Add(formBody(nil, "file"))
	whole := formBody([][2]string{{"target_lang", "Arabic"}}, "data")
	f.Add(whole[:len(whole)/2]) // cut short
	f.Add([]byte("--" + fuzzBoundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a\"\r\n\r\nx\r\n--" + fuzzBoundary + "\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\ny\r\n--" + fuzzBoundary + "--\r\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		files := 0
		req, err := readUploadForm(httpguard.NewMultipart(bytes.NewReader(body), fuzzBoundary), func(name string, part io.Reader) error {
			files++
			_, err := io.Copy(io.Discard, part)
			return err
		})
		if files > 1 {
			t.Fatalf("%d files handed over", files)
		}
		for _, v := range []string{req.TargetLang, req.SourceLang, req.Mode} {
			if len(v) > maxFieldSize || v != strings.TrimSpace(v) {
				t.Fatalf("field %q kept", v)
			}
		}
		if err != nil {
			var re *formReadError
			if !errors.As(err, &re) && files == 0 {
				t.Fatalf("an error not from reading the body and no file read: %v", err)
			}
			return
		}
		form, ferr := multipart.NewReader(bytes.NewReader(body), fuzzBoundary).ReadForm(1 << 20)
		if ferr != nil {
			return
		}
		defer form.RemoveAll()
		if vals := form.Value["target_lang"]; len(vals) > 0 && len(form.File["target_lang"]) == 0 {
			last := vals[len(vals)-1]
			if want := strings.TrimSpace(last[:min(len(last), maxFieldSize)]); req.TargetLang != want {
				t.Fatalf("target_lang %q, ReadForm read %q", req.TargetLang, want)
			}
		}
	})
}
