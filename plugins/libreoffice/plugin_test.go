package main

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/dragoman-translate/dragoman/adapters/pluginhost"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/libreoffice/pool"
	"github.com/dragoman-translate/dragoman/plugins/libreoffice/pool/pooltest"
)

const corpus = "../../testdata/corpus"

var pluginDir string // this plugin and the pseudo engine the host insists on

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "libreoffice-plugin-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	pluginDir = dir
	code := 1
	for _, b := range [][2]string{{".", "dragoman-converter-libreoffice"}, {"../pseudo", "dragoman-provider-pseudo"}} {
		cmd := exec.Command("go", "build", "-o", filepath.Join(dir, b[1]), b[0])
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "building the plugins:", err)
			goto out
		}
	}
	code = m.Run()
out:
	os.RemoveAll(dir)
	os.Exit(code)
}

// startHost runs the real plugin through the plugin host, with the
// plugin's temp files under a test directory that must end up empty.
func startHost(t *testing.T) (ports.Converter, func()) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // inherited by the plugin and its soffice instances
	// The tests' generous conversion timeout, not the product's 120 s: a
	// busy machine must not fail a conversion (odftoolkit-Text1.odt once
	// took over 120 s under load).
	t.Setenv(pool.EnvTimeout, pooltest.TestTimeout)
	h, err := pluginhost.New(pluginDir, []string{"pseudo"}, nil, pluginhost.WithStartTimeout(30*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	closed := false
	closeAndCheck := func() {
		if closed {
			return
		}
		closed = true
		t0 := time.Now()
		h.Close()
		t.Logf("host closed in %s", time.Since(t0))
		// Processes and files must be gone once the host has stopped the
		// plugin; if it had to kill it, the UNO helpers clean up on their own.
		deadline := time.Now().Add(30 * time.Second)
		for {
			procs := processesMentioning(tmp)
			entries, _ := os.ReadDir(tmp)
			if len(procs) == 0 && len(entries) == 0 {
				return
			}
			if time.Now().After(deadline) {
				out, _ := exec.Command("find", tmp).CombinedOutput()
				t.Errorf("left behind: processes %v, entries %v, files %s", procs, entries, out)
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	t.Cleanup(closeAndCheck)
	return h.Converter(), closeAndCheck
}

// processesMentioning lists live processes whose command line names dir
// (every soffice names its profile, which lives there).
func processesMentioning(dir string) []string {
	var out []string
	pids, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range pids {
		b, err := os.ReadFile(p)
		if err == nil && bytes.Contains(b, []byte(dir)) {
			out = append(out, strings.ReplaceAll(string(b), "\x00", " "))
		}
	}
	return out
}

func ext(path string) string { return strings.TrimPrefix(filepath.Ext(path), ".") }

// documentXML converts path through the host and returns word/document.xml.
func documentXML(ctx context.Context, c ports.Converter, path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var out bytes.Buffer
	format := ext(path)
	if format == "docm" {
		format = "doc" // what the host's sniffing calls an OLE2 Word file
	}
	if err := c.Convert(ctx, format, f, &out); err != nil {
		return "", err
	}
	zr, err := zip.NewReader(bytes.NewReader(out.Bytes()), int64(out.Len()))
	if err != nil {
		return "", fmt.Errorf("output is not a zip: %w", err)
	}
	for _, zf := range zr.File {
		if zf.Name == "word/document.xml" {
			r, err := zf.Open()
			if err != nil {
				return "", err
			}
			defer r.Close()
			b, err := io.ReadAll(r)
			return string(b), err
		}
	}
	return "", fmt.Errorf("output has no word/document.xml")
}

var textRun = regexp.MustCompile(`<w:t(?: [^>]*)?>([^<]+)</w:t>`)

func text(docXML string) string {
	var b strings.Builder
	for _, m := range textRun.FindAllStringSubmatch(docXML, -1) {
		b.WriteString(m[1])
	}
	return b.String()
}

// nestedTable says whether a table sits inside a table cell.
func nestedTable(docXML string) bool {
	depth := 0
	for _, tok := range regexp.MustCompile(`<w:tbl>|</w:tbl>`).FindAllString(docXML, -1) {
		if tok == "<w:tbl>" {
			depth++
			if depth > 1 {
				return true
			}
		} else {
			depth--
		}
	}
	return false
}

// Every good corpus .doc/.odt/.rtf (and the RTL ones, and the mislabelled
// files whose content is convertible) becomes a .docx with text, running
// as many conversions at once as the pool has instances.
func TestCorpusConvertsThroughTheHost(t *testing.T) {
	c, _ := startHost(t)
	var files []string
	// rtl/ also holds .docx files: those are the DOCX engine's, not converted.
	for _, pat := range []string{"doc/*", "odt/*", "rtf/*", "rtl/*.doc", "rtl/*.odt", "rtl/*.rtf"} {
		m, _ := filepath.Glob(filepath.Join(corpus, pat))
		files = append(files, m...)
	}
	// Content decides: Word 2003 XML named .doc, a Word binary named .docm.
	files = append(files, filepath.Join(corpus, "bad/tika-testWORDML_tableInsideParagraph.doc"),
		filepath.Join(corpus, "bad/poi-cpansearch.perl.org_src_tobyink_acme-rundoc-0.001_word-lib_hello_world.docm"))
	if len(files) < 50 {
		t.Fatalf("only %d corpus files", len(files))
	}
	results := make(map[string]string, len(files))
	var mu sync.Mutex
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	for _, f := range files {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			start := time.Now()
			x, err := documentXML(context.Background(), c, f)
			name, _ := filepath.Rel(corpus, f)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				return
			}
			t.Logf("%-70s %6d ms", name, time.Since(start).Milliseconds())
			mu.Lock()
			results[name] = x
			mu.Unlock()
		}()
	}
	wg.Wait()
	// Files whose content is objects only (equations, embedded files,
	// images) or an empty table: LibreOffice writes no w:t for them.
	noText := map[string]bool{"doc/tika-testLargeOLEDoc.doc": true, "doc/poi-equation.doc": true,
		"odt/pandoc-formula.odt": true, "rtf/tika-testRTFEmbeddedFiles.rtf": true, "rtl/libreoffice-table-rtl.rtf": true}
	for name, x := range results {
		if strings.TrimSpace(text(x)) == "" && !noText[name] {
			t.Errorf("%s: converted without any text", name)
		}
	}
	for _, name := range []string{"rtf/pandoc-table_nested.rtf", "rtf/rtfpipe-phprtflite-nested_tables.rtf", "doc/poi-innertable.doc", "rtf/rtfpipe-Issue51.rtf"} {
		if x, ok := results[name]; ok && !nestedTable(x) {
			t.Errorf("%s: nested table lost", name)
		}
	}
	if x, ok := results["odt/pandoc-trackedChanges.odt"]; ok && !strings.Contains(x, "<w:ins ") && !strings.Contains(x, "<w:del ") {
		t.Errorf("odt/pandoc-trackedChanges.odt: tracked changes lost")
	}
	for _, name := range []string{"doc/poi-Word6.doc", "doc/poi-Word95.doc"} {
		if x, ok := results[name]; ok && len(text(x)) < 20 {
			t.Errorf("%s: only %q", name, text(x))
		}
	}
	if x, ok := results["rtl/shareaza-hebrew.rtf"]; ok && !regexp.MustCompile(`[\x{0590}-\x{05FF}]`).MatchString(text(x)) {
		t.Errorf("rtl/shareaza-hebrew.rtf: no Hebrew text after conversion")
	}
}

// Bad files fail quickly with a message a user understands, as
// InvalidArgument (the document's fault), and leave nothing behind.
func TestBadFilesFailCleanly(t *testing.T) {
	c, closeAndCheck := startHost(t)
	for _, tc := range []struct{ file, want string }{
		{"aspose-Get_Document_Properties.doc", "empty"},
		{"poi-password_tika_binaryrc4.doc", "password-protected"},
		{"tika-testODTEncrypted.odt", "password-protected"},
		{"wordextractor-badfile-01-bad-header.doc", "corrupt"},
		{"odftoolkit-testInvalidPkg1.odt", "corrupt"},
		{"odftoolkit-testInvalidPkg3.odt", "corrupt"},
		{"tika-testODTnotaZipFile.odt", "not a supported"},
		{"rtfpipe-RtfParserTest_fail_3.rtf", "corrupt"},
	} {
		start := time.Now()
		_, err := documentXML(context.Background(), c, filepath.Join(corpus, "bad", tc.file))
		st := status.Convert(err)
		if err == nil || st.Code() != codes.InvalidArgument || !strings.Contains(st.Message(), tc.want) {
			t.Errorf("%s: got %v, want InvalidArgument saying %q", tc.file, err, tc.want)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: took %s to fail", tc.file, d)
		}
		t.Logf("%-45s %s", tc.file, st.Message())
	}
	// The pool is still healthy after all that.
	if _, err := documentXML(context.Background(), c, filepath.Join(corpus, "rtf/pandoc-footnote.rtf")); err != nil {
		t.Fatalf("after the bad files: %v", err)
	}
	closeAndCheck()
}

// The plugin renders a .docx (the pipeline's output) and a source format
// to PDF on its warm pool, through the host, and the PDF holds the text;
// Convert still refuses a .docx, which needs no conversion.
func TestRendersPDFThroughTheHost(t *testing.T) {
	c, _ := startHost(t)
	r, ok := c.(ports.PDFRenderer)
	if !ok {
		t.Fatalf("the host's converter %T renders no PDF", c)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	for _, tc := range []struct{ path, format, want string }{
		{corpus + "/docx/oxpt-WC043-Nested-Table.docx", "docx", "Nested"},
		{corpus + "/rtf/pandoc-footnote.rtf", "rtf", "landmark study"},
	} {
		f, err := os.Open(tc.path)
		if err != nil {
			t.Fatal(err)
		}
		var pdf bytes.Buffer
		began := time.Now()
		err = r.RenderPDF(ctx, tc.format, f, &pdf)
		f.Close()
		t.Logf("%s rendered to a %d-byte PDF in %s", filepath.Base(tc.path), pdf.Len(), time.Since(began))
		if err != nil {
			t.Fatalf("%s: %v", tc.path, err)
		}
		if !bytes.HasPrefix(pdf.Bytes(), []byte("%PDF-")) {
			t.Fatalf("%s: not a PDF: %q", tc.path, pdf.Bytes()[:min(pdf.Len(), 16)])
		}
		in := filepath.Join(t.TempDir(), "out.pdf")
		if err := os.WriteFile(in, pdf.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
		text, err := exec.Command("pdftotext", in, "-").Output()
		if err != nil {
			t.Fatalf("pdftotext: %v", err)
		}
		if !strings.Contains(string(text), tc.want) {
			t.Errorf("%s: the PDF's text lacks %q: %q", tc.path, tc.want, text)
		}
	}
	f, err := os.Open(corpus + "/docx/oxpt-WC043-Nested-Table.docx")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := c.Convert(ctx, "doc", f, io.Discard); err == nil {
		t.Error("a .docx was converted to .docx")
	}
}
