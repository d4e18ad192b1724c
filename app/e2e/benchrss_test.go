package e2e

import (
	"archive/zip"
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// treeRSS samples the summed RSS of the server's process group and keeps
// the largest sample until stop is called.
type treeRSS struct {
	stop    chan struct{}
	done    chan struct{}
	peak    int64
	samples []rssSample
}

type rssSample struct {
	at           time.Time
	server, tree int64
}

// byPhase is the largest server RSS sampled during the upload and during
// each phase of the job (between the events that end them), in MB.
func (t *treeRSS) byPhase(times jobTimes) string {
	bounds := []struct{ name, from, to string }{
		{"upload", "upload", "job_accepted"}, {"read", "job_converted", "job_extracted"},
		{"translate", "job_extracted", "job_translated"}, {"render", "job_translated", "job_laid_out"},
	}
	var parts []string
	for _, b := range bounds {
		to, ok := times[b.to]
		from := times[b.from]
		if !ok || from.IsZero() {
			continue
		}
		var peak int64
		for _, s := range t.samples {
			if !s.at.Before(from) && !s.at.After(to) && s.server > peak {
				peak = s.server
			}
		}
		parts = append(parts, fmt.Sprintf("%s %d", b.name, peak>>20))
	}
	return strings.Join(parts, ", ")
}

func sampleTree(pgid int) *treeRSS {
	t := &treeRSS{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(t.done)
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			r := groupRSS(pgid)
			if r > t.peak {
				t.peak = r
			}
			t.samples = append(t.samples, rssSample{time.Now(), procRSS(pgid), r})
			select {
			case <-t.stop:
				return
			case <-tick.C:
			}
		}
	}()
	return t
}

func (t *treeRSS) end() float64 { close(t.stop); <-t.done; return float64(t.peak) / (1 << 20) }

// procRSS is one process's resident set.
func procRSS(pid int) int64 {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/statm", pid))
	if err != nil {
		return 0
	}
	f := strings.Fields(string(raw))
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseInt(f[1], 10, 64)
	return pages * int64(os.Getpagesize())
}

// groupRSS is the summed resident set of the processes in group pgid.
func groupRSS(pgid int) int64 {
	procs, _ := filepath.Glob("/proc/[0-9]*/stat")
	var sum int64
	for _, p := range procs {
		raw, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(raw, ')')
		if i < 0 || i+2 > len(raw) {
			continue
		}
		f := strings.Fields(string(raw[i+2:]))
		if len(f) < 22 {
			continue
		}
		if g, _ := strconv.Atoi(f[2]); g != pgid {
			continue
		}
		pages, _ := strconv.ParseInt(f[21], 10, 64) // field 24, rss in pages
		sum += pages * int64(os.Getpagesize())
	}
	return sum
}

// measureRSS runs one job to target on a fresh server without the soft
// memory limit and returns the server's peak RSS (VmHWM), the process
// tree's sampled peak, in MB, and the job.
func measureRSS(b *testing.B, path, target string, sc *smallCount) (server, tree float64, j ranJob, phases string) {
	s, w, key := benchServer(b, "DRAGOMAN_ENGINES=pseudo", "GOMEMLIMIT=off")
	defer s.stop()
	defer w.close()
	t := sampleTree(s.cmd.Process.Pid)
	j = runJob(b, s, w, key, path, rssFields(target))
	tree = t.end()
	phases = t.byPhase(j.times)
	sc.lag(j)
	server, err := peakRSS(s.cmd.Process.Pid)
	if err != nil {
		b.Fatal(err)
	}
	return server, tree, j, phases
}

func benchRSS(b *testing.B, dir, big string, sc *smallCount) []benchRow {
	// DRAGOMAN_BENCH_RSS (comma list of heavy, words, part) picks documents.
	docs := envList("DRAGOMAN_BENCH_RSS", "heavy,words,part")
	var rows []benchRow
	for _, c := range []struct {
		id, target, goal string
		size             int
		method           uint16
	}{
		{"heavy", "Spanish", "≤ 256 MB", 50 << 20, zip.Store},
		{"words", "Spanish", "≤ 256 MB", 0, 0},
		{"part", "Arabic", "< 512 MB", 127 << 20, zip.Deflate},
	} {
		if !docs[c.id] {
			continue
		}
		path, name := big, "the 547k-word .docx"
		if c.size > 0 {
			path = filepath.Join(dir, c.id+".docx")
			words, err := genHeavyDocx(path, c.size, c.method)
			if err != nil {
				b.Fatal(err)
			}
			name = fmt.Sprintf("%d MB text-heavy document.xml (%d words, one run per word)", c.size>>20, words)
		}
		st, _ := os.Stat(path)
		srv, tree, j, phases := measureRSS(b, path, c.target, sc)
		status := fmt.Sprint(j.job["status"])
		if e, ok := j.job["error"].(string); ok && e != "" {
			status += ": " + e
		}
		fmt.Fprintf(os.Stderr, "peak RSS, %s to %s: server %.0f MB, tree %.0f MB; job %s in %.1f s; server MB by phase: %s\n", name, c.target, srv, tree, status, j.wall.Seconds(), phases)
		rows = append(rows, benchRow{
			fmt.Sprintf("peak RSS, %s to %s, %.1f MB upload, no soft memory limit", name, c.target, float64(st.Size())/(1<<20)),
			fmt.Sprintf("**%.0f MB** server, %.0f MB process tree (job %s in %.1f s); server MB by phase: %s", srv, tree, status, j.wall.Seconds(), phases),
			"goal " + c.goal + " server",
		})
	}
	return rows
}

// genHeavyDocx writes a .docx whose document.xml is about size bytes of
// text formatted run by run (every word its own run with fonts and size, as
// pasted or converted documents often are), stored with method. It returns
// the number of words.
func genHeavyDocx(path string, size int, method uint16) (int, error) {
	src, err := zip.OpenReader(englishDocx)
	if err != nil {
		return 0, err
	}
	defer src.Close()
	out, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	defer out.Close()
	zw := zip.NewWriter(bufio.NewWriterSize(out, 1<<20))
	r := rand.New(rand.NewSource(42))
	words := 0
	for _, f := range src.File {
		rc, _ := f.Open()
		data, _ := io.ReadAll(rc)
		rc.Close()
		m := f.Method
		if f.Name == "word/document.xml" {
			m = method
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: f.Name, Method: m})
		if err != nil {
			return 0, err
		}
		if f.Name != "word/document.xml" {
			w.Write(data)
			continue
		}
		s := string(data)
		start := strings.Index(s, "<w:body>") + len("<w:body>")
		end := strings.Index(s, "<w:sectPr>")
		bw := bufio.NewWriterSize(w, 1<<20)
		bw.WriteString(s[:start])
		written := start + len(s) - end
		for written < size-4096 {
			var p strings.Builder
			p.WriteString(`<w:p><w:pPr><w:spacing w:after="120"/></w:pPr>`)
			for range 40 {
				word := benchVocabulary[r.Intn(len(benchVocabulary))]
				fmt.Fprintf(&p, `<w:r><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri" w:cs="Calibri"/><w:sz w:val="%d"/></w:rPr><w:t xml:space="preserve">%s </w:t></w:r>`, 20+2*r.Intn(3), word)
				words++
			}
			p.WriteString("</w:p>\n")
			bw.WriteString(p.String())
			written += p.Len()
		}
		bw.WriteString(s[end:])
		if err := bw.Flush(); err != nil {
			return 0, err
		}
	}
	if err := zw.Close(); err != nil {
		return 0, err
	}
	return words, nil
}
