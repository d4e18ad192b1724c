package pool

import (
	"archive/zip"
	"bytes"
	"context"
	"image"
	"image/png"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/dragoman-translate/dragoman/plugins/libreoffice/pool/pooltest"
)

// linkTrap is what a hostile document points at: an HTTP listener on
// loopback that counts connections, and a file outside the work dir
// watched for opens with inotify.
type linkTrap struct {
	conns   atomic.Int64
	mu      sync.Mutex
	asked   []string // requests, for the failure message
	url     string   // http://127.0.0.1:PORT
	file    string   // the file:// target
	inotify int
}

func newLinkTrap(t *testing.T) *linkTrap {
	tr := &linkTrap{}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			tr.mu.Lock()
			tr.asked = append(tr.asked, r.Method+" "+r.URL.Path)
			tr.mu.Unlock()
			http.NotFound(w, r)
		}),
		ConnState: func(_ net.Conn, s http.ConnState) {
			if s == http.StateNew {
				tr.conns.Add(1)
			}
		},
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	tr.url = "http://" + ln.Addr().String()

	dir := t.TempDir()
	tr.file = filepath.Join(dir, "secret.png")
	var pic bytes.Buffer
	if err := pngEncode(&pic); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tr.file, pic.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	if tr.inotify, err = syscall.InotifyInit1(syscall.IN_NONBLOCK | syscall.IN_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Close(tr.inotify) })
	if _, err := syscall.InotifyAddWatch(tr.inotify, dir, syscall.IN_OPEN|syscall.IN_ACCESS); err != nil {
		t.Fatal(err)
	}
	return tr
}

// reset forgets what the fixture set-up caused.
func (tr *linkTrap) reset() {
	tr.conns.Store(0)
	tr.mu.Lock()
	tr.asked = nil
	tr.mu.Unlock()
	tr.fileOpens()
}

// check fails t if anything reached the trap, and resets it.
func (tr *linkTrap) check(t *testing.T, what string) {
	t.Helper()
	time.Sleep(200 * time.Millisecond) // let late connections land
	if n := tr.conns.Load(); n != 0 {
		tr.mu.Lock()
		t.Errorf("%s: the loopback listener saw %d connections (requests: %q)", what, n, tr.asked)
		tr.mu.Unlock()
	}
	if n := tr.fileOpens(); n != 0 {
		t.Errorf("%s: the file:// target was opened or read %d times", what, n)
	}
	tr.reset()
}

// fileOpens drains and counts the inotify events on the file:// target.
func (tr *linkTrap) fileOpens() int {
	n := 0
	buf := make([]byte, 4096)
	for {
		k, err := syscall.Read(tr.inotify, buf)
		if err != nil || k <= 0 {
			return n
		}
		for off := 0; off+syscall.SizeofInotifyEvent <= k; {
			ev := (*syscall.InotifyEvent)(unsafe.Pointer(&buf[off]))
			n++
			off += syscall.SizeofInotifyEvent + int(ev.Len)
		}
	}
}

// pngEncode writes a 1×1 picture, so that reading it would succeed.
func pngEncode(w io.Writer) error {
	return png.Encode(w, image.NewGray(image.Rect(0, 0, 1, 1)))
}

func zipOf(t *testing.T, files ...string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for i := 0; i < len(files); i += 2 {
		method := zip.Deflate
		if files[i] == "mimetype" {
			method = zip.Store
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: files[i], Method: method})
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, files[i+1])
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// hostileODT links an image over HTTP, one over file://, an OLE object
// over HTTP, and a section over HTTP.
func hostileODT(t *testing.T, tr *linkTrap) []byte {
	content := `<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" office:version="1.2">
<office:body><office:text>
<text:p>Remote picture <draw:frame draw:name="a" svg:width="2cm" svg:height="2cm"><draw:image xlink:href="` + tr.url + `/odt.png" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame></text:p>
<text:p>Local picture <draw:frame draw:name="b" svg:width="2cm" svg:height="2cm"><draw:image xlink:href="file://` + tr.file + `" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame></text:p>
<text:p>Object <draw:frame draw:name="c" svg:width="2cm" svg:height="2cm"><draw:object xlink:href="` + tr.url + `/odt-ole" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame></text:p>
<text:section text:name="s"><text:section-source xlink:href="` + tr.url + `/odt-section.odt" xlink:type="simple"/><text:p>section</text:p></text:section>
<text:p><text:a xlink:type="simple" xlink:href="` + tr.url + `/odt-hyperlink">a hyperlink</text:a></text:p>
</office:text></office:body></office:document-content>`
	manifest := `<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">
<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/>
<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>
</manifest:manifest>`
	return zipOf(t, "mimetype", "application/vnd.oasis.opendocument.text",
		"META-INF/manifest.xml", manifest, "content.xml", content)
}

// hostileRTF has INCLUDEPICTURE and INCLUDETEXT fields over HTTP and
// file://, and a hyperlink.
func hostileRTF(tr *linkTrap) []byte {
	return []byte(`{\rtf1\ansi\deff0{\fonttbl{\f0 Arial;}}
{\pard Remote picture {\field{\*\fldinst { INCLUDEPICTURE "` + tr.url + `/rtf.png" \\d }}{\fldrslt { }}}\par}
{\pard Local picture {\field{\*\fldinst { INCLUDEPICTURE "file://` + tr.file + `" \\d }}{\fldrslt { }}}\par}
{\pard Included text {\field{\*\fldinst { INCLUDETEXT "` + tr.url + `/rtf-text.rtf" }}{\fldrslt {included}}}\par}
{\pard {\field{\*\fldinst { HYPERLINK "` + tr.url + `/rtf-hyperlink" }}{\fldrslt {a hyperlink}}}\par}
}`)
}

// sofficeToDoc turns a fixture into a Word binary with a plain soffice in
// its own network namespace, so the set-up itself fetches nothing.
func sofficeToDoc(t *testing.T, name string, b []byte) []byte {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join(dir, name)
	if err := os.WriteFile(src, b, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("soffice", "-env:UserInstallation=file://"+filepath.Join(dir, "profile"),
		"--headless", "--norestore", "--convert-to", "doc:MS Word 97", "--outdir", filepath.Join(dir, "out"), src)
	cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWNET}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("set-up conversion to .doc: %v: %s", err, out)
	}
	doc, err := os.ReadFile(filepath.Join(dir, "out", strings.TrimSuffix(name, filepath.Ext(name))+".doc"))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// docxText is every part of a .docx, concatenated, for looking for links.
func docxText(t *testing.T, b []byte) string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("output is not a zip: %v", err)
	}
	var s strings.Builder
	for _, f := range zr.File {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(&s, r)
		r.Close()
	}
	return s.String()
}

// TestHostileLinksAreNeverFollowed converts documents whose pictures,
// objects, sections and fields point at a loopback listener and at a
// file outside the work dir, warm and cold: nothing may connect, the
// local file must not even be opened, and the remote links must survive
// as links. The profile alone keeps .odt and
// .rtf off the network; the Word binary import fetches linked pictures
// whatever the settings, so .doc relies on the network namespace, which
// the default configuration gets on this machine (root or user
// namespaces; the test fails where neither is allowed).
func TestHostileLinksAreNeverFollowed(t *testing.T) {
	if _, mode := netNamespace(); !strings.HasPrefix(mode, "own") {
		t.Fatalf("this machine gives soffice no network namespace: %s", mode)
	}
	tr := newLinkTrap(t)
	docs := []struct {
		name string
		k    Kind
		b    []byte
		link string // a link that must still be in the output
		// profileOnly: the profile alone keeps it off the network.
		profileOnly bool
	}{
		{"links.odt", ODT, hostileODT(t, tr), tr.url + "/odt-hyperlink", true},
		{"links.rtf", RTF, hostileRTF(tr), tr.url + "/rtf-hyperlink", true},
		{"odt-links.doc", Word, sofficeToDoc(t, "odt-links.odt", hostileODT(t, tr)), tr.url + "/odt-hyperlink", false},
		{"rtf-links.doc", Word, sofficeToDoc(t, "rtf-links.rtf", hostileRTF(tr)), tr.url + "/rtf-hyperlink", true},
	}
	tr.reset()
	for _, mode := range []struct {
		name string
		cfg  Config
	}{
		{"profile-only", Config{Size: 1, NoNetNamespace: true, NoLandlock: true}},
		{"default", Config{Size: 1}},
	} {
		t.Run(mode.name, func(t *testing.T) {
			p := newTestPool(t, mode.cfg)
			for _, d := range docs {
				if mode.cfg.NoNetNamespace && !d.profileOnly {
					continue
				}
				convertTrapped(t, p, tr, d.name, d.k, d.b, d.link)
			}
		})
	}
}

// convertTrapped converts a document that links to the trap, warm and
// cold (as the retry after a crash runs it): each keeps link in its
// output, and nothing reaches the trap.
func convertTrapped(t *testing.T, p *Pool, tr *linkTrap, name string, k Kind, b []byte, link string) {
	t.Helper()
	var out bytes.Buffer
	if err := p.Convert(context.Background(), k, bytes.NewReader(b), &out); err != nil {
		t.Fatalf("%s: %+v", name, err)
	}
	if s := docxText(t, out.Bytes()); !strings.Contains(s, link) {
		t.Errorf("%s: link %s lost in the output", name, link)
	}
	tr.check(t, name+" warm")
	var cold bytes.Buffer
	if err := coldConvertDoc(context.Background(), p.cfg, k, bytes.NewReader(b), &cold); err != nil {
		t.Fatalf("%s cold: %+v", name, err)
	}
	if s := docxText(t, cold.Bytes()); !strings.Contains(s, link) {
		t.Errorf("%s cold: link %s lost in the output", name, link)
	}
	tr.check(t, name+" cold")
}

// issue 15: an RTF whose fields name local files (a picture carrying a
// unique marker, a text file with another) converts, warm and cold,
// without LibreOffice opening either file and without either marker in
// the output. Before the fields were neutralized the picture was read
// and embedded as word/media/image1.png.
func TestLocalFilesNamedByRTFFieldsAreNotRead(t *testing.T) {
	tr := newLinkTrap(t) // watches the directory of tr.file
	dir := filepath.Dir(tr.file)
	picMarker, txtMarker := "DRAGOMAN-PIC-"+randomHex(8), "DRAGOMAN-TXT-"+randomHex(8)
	pic, txt := filepath.Join(dir, "secret-pic.png"), filepath.Join(dir, "secret.txt")
	if err := os.WriteFile(pic, pooltest.MarkerPNG(picMarker), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(txt, []byte(txtMarker+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tr.reset()
	doc := pooltest.LocalFieldsRTF(pic, txt)
	p := newTestPool(t, Config{Size: 1})
	for _, path := range []string{"warm", "cold"} {
		var out bytes.Buffer
		var err error
		if path == "warm" {
			err = p.Convert(context.Background(), RTF, bytes.NewReader(doc), &out)
		} else {
			err = coldConvertDoc(context.Background(), p.cfg, RTF, bytes.NewReader(doc), &out)
		}
		if err != nil {
			t.Fatalf("%s: %+v", path, err)
		}
		s := docxText(t, out.Bytes())
		for _, m := range []string{picMarker, txtMarker} {
			if strings.Contains(s, m) {
				t.Errorf("%s: the output holds %s from a local file", path, m)
			}
		}
		for _, want := range []string{"Picture by URL", "Split", "included", "linked"} {
			if !strings.Contains(s, want) {
				t.Errorf("%s: text %q lost", path, want)
			}
		}
		tr.check(t, "local fields "+path)
	}
}
