package corpusrender

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/rtl/rtltest"
	"github.com/dragoman-translate/dragoman/plugins/libreoffice/pool/pooltest"
)

const (
	corpusRoot = "../../testdata/corpus"
	checker    = "../../testdata/rtl/checker/check_rtl.py"
)

// rtlSource is the language of each document of testdata/corpus/rtl (the
// corpus manifest's script and complex-script language; the RTF table has
// no text to detect a language from).
var rtlSource = map[string]string{
	"aspose-OpenType_text_shaping.docx": "Hebrew",
	"docx4j-arabic_align.docx":          "Arabic",
	"docx4j-arabic_numbering.docx":      "Arabic",
	"docxtemplater-loop-hebrew.docx":    "Hebrew",
	"libreoffice-table-rtl.rtf":         "Hebrew",
	"onlyoffice-ar-SA-new.docx":         "Arabic",
	"oxpt-HC002-Hebrew-01.docx":         "Hebrew",
	"oxpt-HC014-RTL-Table-01.docx":      "Hebrew",
	"oxpt-RP051-Arabic.docx":            "Arabic",
	"oxsdk-Comment028.docx":             "Arabic",
	"poi-Bug45473.doc":                  "Hebrew",
	"poi-stress004.docx":                "Persian",
	"poi-stress011.docx":                "Arabic",
	"shareaza-arabic.rtf":               "Arabic",
	"shareaza-hebrew.rtf":               "Hebrew",
}

var langCode = map[string]string{"English": "en", "Arabic": "ar", "Hebrew": "he", "Persian": "fa"}

// checkerLimits are outputs the brief's render check (check_rtl.py
// --render) fails although LibreOffice renders them right, each with what
// was measured on the PDF (pdftotext -bbox-layout, points). The checker
// takes a page's left and right edges from the rendered lines (the
// leftmost xMin, the rightmost xMax) and flags an RTL-only line that
// touches that left edge but not the right one; it counts the end-aligned
// RTL paragraphs (jc right/end, rendered flush left) once per document but
// flagged lines once per rendered line, and it judges pdftotext's pieces of
// a line one by one. Only its render finding is excused here: its XML
// assertions, and rtltest.CheckRender (the section's margins as edges,
// end-aligned lines counted per page, pieces joined), must pass for these
// too.
var checkerLimits = map[string]string{
	// 8 end-aligned RTL paragraphs (jc=right in the English source), 14
	// (ar) / 12 (he) flagged lines: the header paragraph (jc=right, 3
	// lines) ends with a short line at x=90.1..181.3, y=74.9 on each of
	// the 7 pages that carry it; the last lines of the end-aligned body
	// paragraphs (p1 y=581.4 x=90.0..135.6 after full lines 92.7..474.7);
	// page 7's right edge is 589.6 (a wide table), so the header's full
	// lines (92.4..491.9) no longer "touch" it.
	"aspose-Rendering.ar": "end-aligned header repeated on 7 pages, counted once; edges from a wide table",
	"aspose-Rendering.he": "end-aligned header repeated on 7 pages, counted once; edges from a wide table",
	// Page 54 (A4, margins 72..523.3): a list with a 108 pt start indent;
	// its wrapped lines start at x=415.2 (523.3-108) and end at 110.6..113.4,
	// where the Arabic words break. No line reaches the left margin, so the
	// checker takes 110.6 as the left edge (he: page 46, 111.9..415.2).
	"docx4j-Docx4j_GettingStarted.ar": "edges from rendered lines: wrapped lines of an indented list",
	"docx4j-Docx4j_GettingStarted.he": "edges from rendered lines: wrapped lines of an indented list",
	// Page 1 (margins 90..522): a two-column table, first column on the
	// right; "بب" (x=287.6..300.7) is right-aligned in the left column,
	// whose text area ends at 301. No line reaches the left margin, so the
	// checker's left edge is 287.6, the flagged line's own start.
	"docxtemplater-table-in-table-corruption.ar": "edges from rendered lines: right-aligned text of a table's left column",
	"docxtemplater-table-in-table-corruption.he": "edges from rendered lines: right-aligned text of a table's left column",
	// Page 1 (margins 72..540): three columns; the left one's text is
	// right-aligned at x=222.7 and wraps, its second line filling the cell
	// to 82.7, which the checker takes as the left edge.
	"oxpt-HC029-Table-Merged-Cells.ar": "edges from rendered lines: wrapped text of a table's left column",
	"oxpt-HC029-Table-Merged-Cells.he": "edges from rendered lines: wrapped text of a table's left column",
	// Page 5 (A4, margins 36..537.7): a floating table mirrored to the
	// right (tblpX 828 → 239); the flagged line (x=66.2..193.5, centre
	// 129.9) is centred in its left column (cell ≈37..216, centre 126).
	"oxpt-RP001-Tracked-Revisions-01.ar": "edges from rendered lines: centred text of a table's left column",
	// ar, page 2 (margins 72..540): a three-column table; "…3" at
	// x=144.0..217.2 is right-aligned in the left column (≈66..222); no line
	// reaches the left margin. he, page 2: a two-column section (cols
	// num=2, space 720): the left column is 72..288 and its right-aligned
	// lines end at 288.0; the checker's left edge is 196.0.
	"tika-testWORD_various.ar": "edges from rendered lines: right-aligned text of a table's left column",
	"tika-testWORD_various.he": "edges from rendered lines: right-aligned lines of a section's left column",
	// The footer (jc=right: end-aligned, flush left) at y=725,
	// x=72.1..339.0 is drawn on both pages and counted once.
	"poi-bug65738.ar": "end-aligned footer repeated on every page, counted once",
	"poi-bug65738.he": "end-aligned footer repeated on every page, counted once",
	// Page 1, y=528.1: one rendered line (a label, a tab, then text) that
	// pdftotext reports in 4 pieces: 424.8..525.5, 275.6..347.2,
	// 246.2..256.2 and 51.6..265.3; the line starts at the right margin
	// (527.0) and the last piece alone is judged flush left.
	"poi-45690.he": "pdftotext cuts one rendered line in pieces",
	// Page 1, y=258.2: a justified line (margins 90.2..505.4) reported in 8
	// pieces from 497.2..505.1 to 90.3..134.8 (gaps of 17 pt); the last
	// piece alone is judged flush left.
	"pandoc-instrText_hyperlink.he": "pdftotext cuts one rendered line in pieces",
}

// rendererLimits are outputs LibreOffice draws differently from Word,
// which the layout cannot write around without changing what Word shows.
var rendererLimits = map[string]string{
	// The column chart's value axis is moved to the right (c:axPos r,
	// categories reversed) and its title belongs beside it, where Word
	// draws it; LibreOffice draws the title of a chart's primary value axis
	// on the left whatever axPos says (page 2: title at x=57.6..138.4,
	// axis labels at 485.6..501.1). LibreOffice places it by the axis
	// being the primary one, not by c:axPos (the axis itself goes right
	// only because the reversed categories make it cross there). Only a
	// manual title position (c:title/c:layout/c:manualLayout with xMode and
	// yMode edge; factor is ignored) moves it, and that would move Word's
	// too, to a fixed fraction of the chart that the plot area does not
	// make room for (x=0.9 overlapped the axis labels).
	"onlyoffice-sample.ar": "LibreOffice draws a value-axis title on the left whatever c:axPos says",
	"onlyoffice-sample.he": "LibreOffice draws a value-axis title on the left whatever c:axPos says",
}

// crashOnClose are outputs after which LibreOffice aborts (signal 6) while
// closing the document, after the complete PDF was written; the brief's
// checker runs soffice with check=True and so fails them. The trigger,
// found by removing parts one at a time: the first section is right to
// left (sectPr/w:bidi, after which LibreOffice lays the pages out right to
// left), the document has an endnote, and five page-anchored shapes of a
// cover page (four with text boxes). At close LibreOffice removes the
// endnote page, repositions the pages and aborts in
// SwTextBoxHelper::syncFlyFrameAttr. The English source with nothing but
// <w:bidi/> added to its first sectPr aborts the same way; without the
// endnote reference, or without any one of those shapes, it closes
// cleanly. Every sectPr must carry w:bidi in RTL output (the brief's XML
// assertion 2), so the layout keeps it. The Writer .ui files the -nogui
// packages lack (libreoffice-writer's modules/swriter/ui) do not change it:
// with them the one-shot conversion and the warm view both still abort at
// close, in the same place.
var crashOnClose = map[string]string{
	"oxsdk-Complex01.ar": "LibreOffice aborts at close: RTL first section, an endnote and page-anchored text boxes",
	"oxsdk-Complex01.he": "LibreOffice aborts at close: RTL first section, an endnote and page-anchored text boxes",
}

// output is one translated document.
type output struct {
	src, from, to, path string
	label               string // NAME.code
	pdf                 string
	loAbort             bool // LibreOffice aborted after writing the PDF
}

func (o *output) rtl() bool { return o.to != "English" }

// TestCorpusRender: see the package comment.
func TestCorpusRender(t *testing.T) {
	r := newRun(t)
	docx, err := filepath.Glob(filepath.Join(corpusRoot, "docx", "*.doc[xm]"))
	if err != nil || len(docx) < 40 {
		t.Fatalf("corpus docx: %d documents (%v)", len(docx), err)
	}
	rtlDocs, err := filepath.Glob(filepath.Join(corpusRoot, "rtl", "*"))
	if err != nil || len(rtlDocs) < 15 {
		t.Fatalf("corpus rtl: %d documents (%v)", len(rtlDocs), err)
	}
	r.add(docx, "English", "Arabic")
	r.add(docx, "English", "Hebrew")
	byLang := map[string][]string{}
	for _, f := range rtlDocs {
		l := rtlSource[filepath.Base(f)]
		if l == "" {
			t.Fatalf("%s: add its language to rtlSource", f)
		}
		byLang[l] = append(byLang[l], f)
	}
	for _, l := range []string{"Arabic", "Hebrew", "Persian"} {
		r.add(byLang[l], l, "English")
	}
	r.check()
}

// TestBuiltRender: the documents built for issue 10 items 1, 4 and 5
// (built_test.go) pass the same checks as the corpus, through the API.
func TestBuiltRender(t *testing.T) {
	r := newRun(t)
	dir := filepath.Join(r.work, "built")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, d := range builtDocs() {
		p := d.write(t, dir)
		for _, to := range d.to {
			r.add([]string{p}, d.from, to)
		}
	}
	r.check()
}

// run is one render check: documents translated through one server, then
// rendered and checked together.
type run struct {
	t       *testing.T
	start   time.Time
	py, bin string
	work    string
	srv     *api
	outs    []*output
}

func newRun(t *testing.T) *run {
	r := &run{t: t, start: time.Now()}
	for _, tool := range []string{"soffice", "pdftotext", "pdffonts"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is required (make deps): %v", tool, err)
		}
	}
	r.py = pythonWithLXML(t)
	r.bin = binDir(t)
	r.work = t.TempDir()
	if keep := os.Getenv("DRAGOMAN_CORPUS_RENDER_KEEP"); keep != "" {
		r.work = filepath.Join(keep, t.Name())
	}
	r.srv = startAPI(t, r.bin)
	return r
}

// add translates files from one language ("": detected) to another.
func (r *run) add(files []string, from, to string) {
	dir := filepath.Join(r.work, langCode[to])
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))
		r.outs = append(r.outs, &output{src: f, from: from, to: to, path: filepath.Join(dir, name+"."+langCode[to]+".docx"),
			label: name + "." + langCode[to]})
	}
	translate(r.t, r.bin, r.srv, files, from, to, dir)
}

// check renders every output and runs the three checks on each.
func (r *run) check() {
	t, outs, work, py, start := r.t, r.outs, r.work, r.py, r.start
	t.Logf("%d documents translated in %s", len(outs), time.Since(start).Round(time.Second))

	pdfStart := time.Now()
	toPDFs(t, filepath.Join(work, "pdf"), outs)
	t.Logf("%d outputs rendered by LibreOffice in %s", len(outs), time.Since(pdfStart).Round(time.Second))

	brief := runBriefChecker(t, py, filepath.Join(work, "pdf"), outs)
	fc := rtltest.NewFontconfig()
	ctx := context.Background()
	for _, o := range outs {
		if why := crashOnClose[o.label]; o.loAbort && why == "" {
			t.Errorf("%s: LibreOffice aborted after writing the PDF", o.label)
		} else if why != "" && !o.loAbort {
			t.Logf("%s: listed in crashOnClose (%s) but LibreOffice closed it cleanly", o.label, why)
		}
		if o.pdf == "" {
			t.Errorf("%s: LibreOffice wrote no PDF", o.label)
			continue
		}
		out, err := os.ReadFile(o.path)
		if err != nil {
			t.Fatal(err)
		}
		src := out // rule 6 compares against the source: only a .docx source has one
		if strings.HasSuffix(o.src, ".docx") || strings.HasSuffix(o.src, ".docm") {
			if src, err = os.ReadFile(o.src); err != nil {
				t.Fatal(err)
			}
		}
		// The project's checks: XML assertions, then the render check.
		target := rtltest.Target{RTL: o.rtl(), Lang: langCode[o.to], Covers: fc.Covers, ForceTwins: o.rtl()}
		fs, st, err := rtltest.CheckXML(src, out, target)
		if err != nil {
			t.Errorf("%s: %v", o.label, err)
			continue
		}
		for i, f := range fs {
			if i == 5 {
				t.Errorf("%s: … %d XML findings in all", o.label, len(fs))
				break
			}
			t.Errorf("%s: %s", o.label, f)
		}
		pages, err := rtltest.Layout(ctx, o.pdf)
		if err != nil {
			t.Errorf("%s: %v", o.label, err)
			continue
		}
		fonts, err := rtltest.Fonts(ctx, o.pdf)
		if err != nil {
			t.Fatal(err)
		}
		left, right, err := rtltest.PageEdges(out)
		if err != nil {
			t.Fatalf("%s: %v", o.label, err)
		}
		rt := rtltest.RenderTarget{RTL: o.rtl(), Left: left, Right: right, EndAligned: st.EndAligned}
		if !rt.RTL {
			rt.EndAligned = st.EndAlignedLTR
		}
		for _, f := range rtltest.CheckRender(pages, fonts, rt) {
			t.Errorf("%s: %s", o.label, f)
		}
		// The brief's checker.
		r := brief[o.label]
		if r == nil {
			t.Errorf("%s: the brief's checker gave no verdict", o.label)
			continue
		}
		var xmlFails, renderFails []string
		for _, f := range r.Fails {
			if strings.HasPrefix(f, "render: ") || strings.Contains(f, "flush-left RTL lines") {
				renderFails = append(renderFails, f)
			} else {
				xmlFails = append(xmlFails, f)
			}
		}
		for _, f := range first(xmlFails, 5) {
			t.Errorf("%s: check_rtl.py: %s", o.label, f)
		}
		why := checkerLimits[o.label]
		if why == "" {
			why = rendererLimits[o.label]
		}
		if why != "" {
			if len(renderFails) == 0 {
				t.Logf("%s: listed (%s) but passes the checker's render check: remove it", o.label, why)
			}
			continue
		}
		for _, f := range first(renderFails, 5) {
			t.Errorf("%s: check_rtl.py --render: %s", o.label, f)
		}
	}
	t.Logf("corpus render check: %d outputs in %s", len(outs), time.Since(start).Round(time.Second))
}

func first(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// binDir holds dragoman and plugins/: DRAGOMAN_BIN, or the repository's bin.
func binDir(t *testing.T) string {
	t.Helper()
	d := os.Getenv("DRAGOMAN_BIN")
	if d == "" {
		d = "../../bin"
	}
	d, err := filepath.Abs(d)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(d, "dragoman")); err != nil {
		t.Fatalf("no dragoman binary in %s (run make build, or set DRAGOMAN_BIN): %v", d, err)
	}
	return d
}

// api is a running `dragoman serve` (pseudo engine) and an enterprise
// key: the documents go through the REST API as a customer's would.
type api struct {
	url, ca, key string
}

// startAPI starts the real server on free ports with its own data dir and
// makes an enterprise account with a key; the server stops with the test.
func startAPI(t *testing.T, bin string) *api {
	t.Helper()
	data := t.TempDir()
	cmd := exec.Command(filepath.Join(bin, "dragoman"), "serve", "--data-dir", data, "--plugin-dir", filepath.Join(bin, "plugins"),
		"--https-addr", "127.0.0.1:0", "--http-addr", "", "--metrics-addr", "", "--nats-listen", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "DRAGOMAN_ENGINES=pseudo", "TMPDIR="+t.TempDir(),
		// The tests' generous conversion timeout, not the product's.
		"DRAGOMAN_LIBREOFFICE_TIMEOUT="+pooltest.TestTimeout)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(time.Minute):
			cmd.Process.Kill()
		}
	})
	// The banner names the bound address: "serving https on HOST:PORT".
	addr := make(chan string, 1)
	var log syncLog
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			log.add(line)
			if _, rest, ok := strings.Cut(line, "serving https on "); ok {
				select {
				case addr <- strings.Fields(rest)[0]:
				default:
				}
			}
		}
	}()
	var a api
	select {
	case got := <-addr:
		a.url, a.ca = "https://"+got, filepath.Join(data, "tls", "cert.pem")
	case <-time.After(5 * time.Minute):
		t.Fatalf("dragoman serve did not start in 5 minutes:\n%s", log.String())
	}
	admin := func(args ...string) map[string]any {
		out, err := exec.Command(filepath.Join(bin, "dragoman"), append(append([]string{"admin"}, args...), "--data-dir", data)...).Output()
		var m map[string]any
		if err == nil {
			err = json.Unmarshal(out, &m)
		}
		if err != nil {
			t.Fatalf("dragoman admin %v: %v: %s", args, err, out)
		}
		return m
	}
	id, _ := admin("account", "create", "--plan", "enterprise", "--name", "corpus")["account_id"].(string)
	admin("account", "set-plan", "--account", id, "--plan", "enterprise", "--requests-per-minute", "100000")
	a.key, _ = admin("key", "create", "--account", id)["api_key"].(string)
	if a.key == "" {
		t.Fatal("no API key")
	}
	return &a
}

type syncLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *syncLog) add(s string) {
	l.mu.Lock()
	l.b.WriteString(s + "\n")
	l.mu.Unlock()
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// translate runs `dragoman translate` against the server (the REST API)
// on files, writing NAME.<code>.docx into dir.
func translate(t *testing.T, bin string, srv *api, files []string, from, to, dir string) {
	t.Helper()
	if len(files) == 0 {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	abs := make([]string, len(files))
	for i, f := range files {
		abs[i], _ = filepath.Abs(f)
	}
	args := append([]string{"translate", "--server", srv.url, "--ca", srv.ca, "--key", srv.key,
		"--from", from, "--to", to, "--out", dir, "--json"}, abs...)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(bin, "dragoman"), args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("dragoman translate --to %s: %v\n%s\n%s", to, err, out, tail(stderr.String(), 3000))
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// toPDFs converts the outputs in two LibreOffice processes (the CI machine
// has two cores), each with its own profile. LibreOffice stops at a
// document after which it aborts: the documents after it are converted by
// a new process, and the one it aborted on is marked.
func toPDFs(t *testing.T, dir string, outs []*output) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	pdfOf := func(o *output) string { return filepath.Join(dir, o.label+".pdf") }
	convert := func(part []*output, profile string) {
		for len(part) > 0 {
			args := []string{"-env:UserInstallation=file://" + profile, "--headless", "--norestore", "--convert-to", "pdf", "--outdir", dir}
			for _, o := range part {
				args = append(args, o.path)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
			msg, err := exec.CommandContext(ctx, "soffice", args...).CombinedOutput()
			cancel()
			done := 0
			for done < len(part) {
				if _, err := os.Stat(pdfOf(part[done])); err != nil {
					break
				}
				part[done].pdf = pdfOf(part[done])
				done++
			}
			if err == nil && done == len(part) {
				return
			}
			if done == 0 { // no PDF at all for the first: give it up
				t.Errorf("%s: LibreOffice wrote no PDF: %v\n%s", part[0].label, err, tail(string(msg), 2000))
				done = 1
			} else if err != nil {
				part[done-1].loAbort = true
			}
			part = part[done:]
		}
	}
	half := (len(outs) + 1) / 2
	var wg sync.WaitGroup
	for i, part := range [][]*output{outs[:half], outs[half:]} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			convert(part, filepath.Join(dir, fmt.Sprintf("profile%d", i)))
		}()
	}
	wg.Wait()
}

// verdict is the brief checker's result for one output.
type verdict struct {
	Label string   `json:"label"`
	RC    int      `json:"rc"`
	Fails []string `json:"fails"`
}

// briefDriver runs check_rtl.main(path, target, render=True) on each
// document, in one Python process, with the checker's own soffice call
// answered by the PDF LibreOffice already made of the same file (the
// checker's code is otherwise untouched).
const briefDriver = `
import sys, os, io, json, shutil, subprocess, contextlib
sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[1])))
import check_rtl
pdfdir = sys.argv[2]
real = subprocess.run
def run(args, **kw):
    if args and args[0] == 'soffice':
        src, out = args[-1], args[args.index('--outdir') + 1]
        label = os.path.splitext(os.path.basename(src))[0]
        shutil.copy(os.path.join(pdfdir, label + '.pdf'), out)
        return subprocess.CompletedProcess(args, 0, b'', b'')
    return real(args, **kw)
check_rtl.subprocess.run = run
for item in sys.argv[3:]:
    target, path = item.split(':', 1)
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf):
            rc = check_rtl.main(path, target, True)
    except Exception as e:
        rc, _ = 2, buf.write('FAIL exception: %r\n' % (e,))
    fails = [l[5:] for l in buf.getvalue().splitlines() if l.startswith('FAIL ')]
    print(json.dumps({'label': os.path.splitext(os.path.basename(path))[0], 'rc': rc, 'fails': fails}))
    sys.stdout.flush()
`

func runBriefChecker(t *testing.T, py, pdfDir string, outs []*output) map[string]*verdict {
	t.Helper()
	chk, err := filepath.Abs(checker)
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"-c", briefDriver, chk, pdfDir}
	for _, o := range outs {
		if o.pdf == "" {
			continue
		}
		target := "ltr"
		if o.rtl() {
			target = "rtl"
		}
		args = append(args, target+":"+o.path)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("check_rtl.py: %v\n%s", err, tail(stderr.String(), 3000))
	}
	res := map[string]*verdict{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var v verdict
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("check_rtl.py driver: %q: %v", l, err)
		}
		res[v.Label] = &v
	}
	return res
}

// pythonWithLXML finds a python3 on PATH that imports lxml (the brief's
// checker needs it): DRAGOMAN_PYTHON, else the first python3 of PATH's
// folders that has it.
func pythonWithLXML(t *testing.T) string {
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
