package httpapi

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
)

// rawEntry adds name to zw with data deflated, declaring the sizes and
// checksum given (a crafted .zip lies about them).
func rawEntry(t *testing.T, zw *zip.Writer, name string, data []byte, declared uint64, crc uint32) {
	t.Helper()
	var comp bytes.Buffer
	fw, _ := flate.NewWriter(&comp, flate.BestSpeed)
	fw.Write(data)
	fw.Close()
	w, err := zw.CreateRaw(&zip.FileHeader{Name: name, Method: zip.Deflate, CRC32: crc, CompressedSize64: uint64(comp.Len()), UncompressedSize64: declared})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(comp.Bytes())
}

// crafted makes a .zip with fill, which adds its entries.
func crafted(t *testing.T, fill func(zw *zip.Writer)) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	fill(zw)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// A .zip sent to POST /v1/translate that cannot make a batch gets a clear
// 4xx naming why, and leaves no job and no file: entries whose data is not
// what its directory says (a passed size, a failed checksum), names outside
// it, more documents or more bytes unpacked than its limits (refused from
// its directory, before anything is unpacked), only a .zip inside, more
// jobs than a batch takes. POST /v1/quote answers the same.
func TestBatchZipRefusals(t *testing.T) {
	b := newBatchEnv(t)
	doc := b.docx
	zeros := make([]byte, 45<<20)
	cases := []struct {
		name   string
		zip    func() []byte
		status int
		want   string
		to     string // target_langs; "" is target_lang Spanish
	}{
		{"a size it passes", func() []byte {
			return crafted(t, func(zw *zip.Writer) { rawEntry(t, zw, "report.docx", doc, 1000, crc32.ChecksumIEEE(doc)) })
		}, 422, "the .zip is damaged: report.docx in it cannot be read whole", ""},
		{"a checksum that fails", func() []byte {
			return crafted(t, func(zw *zip.Writer) { rawEntry(t, zw, "report.docx", doc, uint64(len(doc)), 0xdeadbeef) })
		}, 422, "the .zip is damaged: report.docx in it cannot be read whole", ""},
		{"a name outside it", func() []byte {
			return zipOf(t, [2]string{"report.docx", string(doc)}, [2]string{"../../etc/cron.d/x.docx", string(doc)})
		}, 422, `names an entry outside itself (\"../../etc/cron.d/x.docx\")`, ""},
		{"an absolute name", func() []byte { return zipOf(t, [2]string{"/tmp/x.docx", string(doc)}) }, 422, "names an entry outside itself", ""},
		{"51 documents", func() []byte {
			var es [][2]string
			for i := range 51 {
				es = append(es, [2]string{fmt.Sprintf("d%02d.docx", i), string(doc)})
			}
			return zipOf(t, es...)
		}, 422, "the .zip holds more than 50 documents", ""},
		{"225 MB unpacked", func() []byte {
			return crafted(t, func(zw *zip.Writer) {
				for i := range 5 {
					rawEntry(t, zw, fmt.Sprintf("big%d.docx", i), zeros, uint64(len(zeros)), crc32.ChecksumIEEE(zeros))
				}
			})
		}, 413, "unpack to more than 200 MB together", ""},
		{"a .zip inside only", func() []byte {
			return zipOf(t, [2]string{"inner.zip", string(zipOf(t, [2]string{"report.docx", string(doc)}))}, [2]string{"notes.txt", "x"})
		}, 422, "a .zip inside it is not opened (inner.zip)", ""},
		{"9 documents to 12 targets", func() []byte {
			var es [][2]string
			for i := range 9 {
				es = append(es, [2]string{fmt.Sprintf("d%d.docx", i), string(doc)})
			}
			return zipOf(t, es...)
		}, 422, "9 documents to 12 targets make 108 jobs, over the 100 of one batch", "Spanish,Urdu,French,German,Italian,Portuguese,Catalan,Galician,Romanian,Arabic,Hebrew,Persian"},
	}
	for _, c := range cases {
		z := c.zip()
		fields := map[string]string{"target_lang": "Spanish", "source_lang": "English"}
		if c.to != "" {
			fields = map[string]string{"target_langs": c.to, "source_lang": "English"}
		}
		for _, path := range []string{"/v1/translate", "/v1/quote"} {
			code, body := b.uploadTo(path, "alice", "folder.zip", z, fields)
			if code != c.status || !contains(body, c.want) {
				t.Errorf("%s %s: %d %.300s; want %d with %q", path, c.name, code, body, c.status, c.want)
			}
			if files := b.files(); len(files) != 0 {
				t.Errorf("%s %s: left %q", path, c.name, files)
			}
		}
	}
	if jobs := b.jobs("alice"); len(jobs) != 0 {
		t.Errorf("refused .zip files made %d jobs", len(jobs))
	}
}

// Documents named alike in different folders of a .zip get their folders'
// names, so their translations are not saved over each other; other
// entries are listed as skipped.
func TestBatchZipNamesAlikeStayApart(t *testing.T) {
	b := newBatchEnv(t)
	z := zipOf(t, [2]string{"report.docx", string(b.docx)}, [2]string{"2023/report.docx", string(b.docx)},
		[2]string{"2024/Report.docx", string(b.docx)}, [2]string{"2024/photo.jpg", "jpeg"}, [2]string{"old.zip", "PK"})
	code, body := b.upload("alice", "folder.zip", z, map[string]string{"target_lang": "Spanish", "source_lang": "English"})
	if code != 202 {
		t.Fatalf("zip: %d %s", code, body)
	}
	var acc BatchAccepted
	json.Unmarshal([]byte(body), &acc)
	var names []string
	for _, a := range acc.Jobs {
		j, err := b.store.GetJob(bg, a.JobID)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, j.OriginalName)
	}
	if want := []string{"report.docx", "2023_report.docx", "2024_Report.docx"}; !slices.Equal(names, want) {
		t.Errorf("job names %q, want %q", names, want)
	}
	if want := []string{"2024/photo.jpg", "old.zip"}; !slices.Equal(acc.Skipped, want) {
		t.Errorf("skipped %q, want %q", acc.Skipped, want)
	}
}

// A .zip of documents at a URL is a batch too, with one target as with
// several, as an upload is (one target was 400, "not a Word document").
func TestBatchZipAtAURL(t *testing.T) {
	b := newBatchEnv(t)
	z := zipOf(t, [2]string{"a.docx", string(b.docx)}, [2]string{"b/c.docx", string(b.docx)})
	docs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write(z) }))
	defer docs.Close()
	g := &glossaryEnv{webhookEnv: b.webhookEnv}
	for _, c := range []struct {
		body string
		jobs int
	}{
		{`{"url":"` + docs.URL + `/folder.zip","target_lang":"Spanish"}`, 2},
		{`{"url":"` + docs.URL + `/folder.zip","target_langs":["Spanish","Urdu"]}`, 4},
	} {
		var acc BatchAccepted
		code, out := g.raw("alice", "POST", "/v1/translate-url", "application/json", []byte(c.body), &acc)
		if code != 202 || acc.BatchID == "" || len(acc.Jobs) != c.jobs {
			t.Errorf("%s: %d %s; want a batch of %d jobs", c.body, code, out, c.jobs)
		}
	}
}

// The entries of a .zip left out are listed at most 100, then counted
// ("… and N more"), and without the direction controls that would show a
// name as another: a 50 MB .zip can hold hundreds of thousands of them.
func TestBatchZipSkippedIsBounded(t *testing.T) {
	b := newBatchEnv(t)
	es := [][2]string{{"report.docx", string(b.docx)}, {"photo\u202Egpj.exe", "x"}}
	for i := range 149 {
		es = append(es, [2]string{fmt.Sprintf("pictures/p%03d.jpg", i), "x"})
	}
	code, body := b.upload("alice", "folder.zip", zipOf(t, es...), map[string]string{"target_lang": "Spanish", "source_lang": "English"})
	if code != 202 {
		t.Fatalf("zip: %d %.300s", code, body)
	}
	var acc BatchAccepted
	json.Unmarshal([]byte(body), &acc)
	if len(acc.Skipped) != 101 || acc.Skipped[0] != "photogpj.exe" || acc.Skipped[99] != "pictures/p098.jpg" || acc.Skipped[100] != "… and 50 more" {
		t.Errorf("skipped: %d entries, first %q, last %q; want 100 named (no U+202E), then \"… and 50 more\"", len(acc.Skipped), acc.Skipped[0], acc.Skipped[len(acc.Skipped)-1])
	}
}
