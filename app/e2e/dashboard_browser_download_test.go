package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
)

// download clicks link (a CSS selector) and returns the file the browser
// saved in dir once the download completed.
func (u *ui) download(link, dir string) string {
	t := u.t
	t.Helper()
	progress := chromedp.Events(u.ctx, browser.DownloadProgress)
	u.do("download "+link,
		chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			_, err := chromedp.Call(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
				Behavior: browser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: dir, EventsEnabled: boolPtr(true),
			})
			return err
		}),
		chromedp.Click(chromedp.CSS(link)),
	)
	for ev, err := range progress {
		if err != nil {
			t.Fatalf("download %s: %v", link, err)
		}
		if ev.State == browser.DownloadProgressStateCanceled {
			t.Fatalf("download %s cancelled", link)
		}
		if ev.State == browser.DownloadProgressStateCompleted {
			return filepath.Join(dir, ev.GUID)
		}
	}
	t.Fatalf("download %s: no more events", link)
	return ""
}

// download downloads the Arabic translation and its PDF through the browser.
func (tour *browserTour) download() {
	t, u := tour.t, tour.u
	doc, arabicRow := tour.doc, "#job-"+tour.arabicJob
	// Download the Arabic translation through the browser and check it.
	dlDir := t.TempDir()
	download := func(link string) string { t.Helper(); return u.download(link, dlDir) }
	got := download(arabicRow + " a.download")
	check := exec.Command(filepath.Join(binaries(t), "dragoman"), "fidelity", doc, got)
	if out, err := check.CombinedOutput(); err != nil {
		t.Fatalf("the downloaded file fails the structure check: %v\n%s", err, out)
	}
	// The PDF asked for with "PDF too" downloads as a PDF with the
	// translation's pages.
	pdfFile := download(arabicRow + " a.pdf")
	if b, err := os.ReadFile(pdfFile); err != nil || !bytes.HasPrefix(b, []byte("%PDF-")) || len(b) < 1000 {
		t.Fatalf("the PDF download: %v, %d bytes, starts %q", err, len(b), b[:min(len(b), 8)])
	}
	if out, err := exec.Command("pdfinfo", pdfFile).CombinedOutput(); err != nil || !regexp.MustCompile(`Pages:\s+[1-9]`).Match(out) {
		t.Fatalf("pdfinfo on the PDF download: %v\n%s", err, out)
	}
}

// preview opens the Arabic job's side-by-side preview.
func (tour *browserTour) preview() {
	t, u := tour.t, tour.u
	arabicJob := tour.arabicJob
	// The preview shows both sides as page images, rendered through
	// LibreOffice and pdftoppm.
	u.open("/jobs")
	u.do("open the preview", navClick(chromedp.CSS("#job-"+arabicJob+" a.preview-link")), chromedp.WaitVisible(chromedp.CSS("#preview")))
	loaded := uiRun(u, "both sides render", chromedp.Poll[bool](`(() => {
		const sides = Array.from(document.querySelectorAll("#preview .side"));
		return sides.length === 2 && sides.every(s => { const i = s.querySelector("img.page"); return i && i.complete && i.naturalWidth > 100; });
	})()`, chromedp.WithPollingTimeout(80*time.Second)))
	if !loaded {
		t.Fatalf("preview: %s", u.text("#preview"))
	}
	// Pages load lazily: the browser fetches a page image when it nears the view.
	if lazy := uiRun(u, "lazy pages", chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#preview img.page")).map(i => i.loading)`)); len(lazy) < 2 || slices.ContainsFunc(lazy, func(l string) bool { return l != "lazy" }) {
		t.Errorf("preview page images: loading %v", lazy)
	}
	if n := uiRun(u, "preview pdf", chromedp.Evaluate[int](`document.querySelectorAll(".head a.pdf").length`)); n != 1 {
		t.Errorf("the preview of a job with a PDF offers %d PDF links", n)
	}
	u.strict("preview page")
	u.screenshot("04b-preview")
}
