package e2e

import (
	"archive/zip"
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/dragoman-translate/dragoman/adapters/docx"
)

// BenchmarkTable is `make bench`: it runs the whole service (upload →
// completed, through the public API and the job's events) on generated
// documents and prints one table with each row of issue 13 beside its peer
// figure (the unzip + XML scan floor, Apertium on plain text, a cold
// soffice). It measures only through the public surface (HTTP API, the
// job events on the embedded NATS, the process tree in /proc), so it keeps
// working however the stages are built inside.
//
// DRAGOMAN_BENCH_RUNS (default 3) runs of the 547k-word document with the
// pseudo engine; DRAGOMAN_BENCH_STALL_JOBS (default 100) small jobs back to
// back for the stall count; DRAGOMAN_BENCH_APERTIUM_WORDS (default 60000)
// unique words for the Apertium row. DRAGOMAN_BENCH_ROWS (comma list of
// identity, apertium, stall, rss, office; default all) picks rows;
// DRAGOMAN_BENCH_TARGET sets the rss rows' target language (default Spanish).
func BenchmarkTable(b *testing.B) {
	rows := envList("DRAGOMAN_BENCH_ROWS", "identity,apertium,stall,rss,office")
	runs := envInt("DRAGOMAN_BENCH_RUNS", 3)
	dir := b.TempDir()
	var table []benchRow
	stalls := &stallCount{}
	big := filepath.Join(dir, "547k.docx")
	if rows["identity"] || rows["rss"] || rows["stall"] {
		if err := genWordsDocx(big, 547_000, 10); err != nil {
			b.Fatal(err)
		}
	}
	for range b.N {
		table = table[:0]
		if rows["identity"] {
			table = append(table, benchIdentity(b, big, runs, stalls)...)
		}
		if rows["apertium"] {
			table = append(table, benchApertium(b, dir, envInt("DRAGOMAN_BENCH_APERTIUM_WORDS", 60_000), stalls))
		}
		if rows["stall"] {
			benchStalls(b, dir, envInt("DRAGOMAN_BENCH_STALL_JOBS", 100), stalls)
		}
		if rows["rss"] {
			table = append(table, benchRSS(b, dir, big, stalls)...)
		}
		if rows["office"] {
			table = append(table, benchOffice(b, dir, stalls)...)
		}
		if rows["stall"] {
			table = append(table, benchRow{"jobs idle > 5 s: job_laid_out → job_completed, any hand-off between events, or job_completed → the client seeing it (every job of this bench)",
				fmt.Sprintf("%d of %d jobs (worst finish step %.2f s, worst client lag %.2f s)", stalls.stalled, stalls.jobs, stalls.worst.Seconds(), stalls.worstLag.Seconds()), "goal 0 in 100"})
		}
	}
	printTable(table)
}

type benchRow struct{ what, ours, peer string }

func printTable(rows []benchRow) {
	var sb strings.Builder
	sb.WriteString("\n| measure | dragoman | peer / goal |\n|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&sb, "| %s | %s | %s |\n", r.what, r.ours, r.peer)
	}
	fmt.Fprint(os.Stdout, sb.String())
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

func envList(name, def string) map[string]bool {
	v := os.Getenv(name)
	if v == "" {
		v = def
	}
	m := map[string]bool{}
	for _, s := range strings.Split(v, ",") {
		m[strings.TrimSpace(s)] = true
	}
	return m
}

// jobTimes are the job's events as a subscriber sees them: the At of each
// topic's event (stamped by the stage that published it).
type jobTimes map[string]time.Time

// eventWatch subscribes to the job topics of a server's embedded NATS.
type eventWatch struct {
	nc   *nats.Conn
	mu   sync.Mutex
	jobs map[string]jobTimes
}

var jobTopics = []string{"job_accepted", "job_converted", "job_extracted", "job_translated", "job_assembled", "job_laid_out", "job_completed", "job_failed"}

func watchEvents(b *testing.B, url string) *eventWatch {
	nc, err := nats.Connect(url)
	if err != nil {
		b.Fatalf("connect to the server's NATS: %v", err)
	}
	w := &eventWatch{nc: nc, jobs: map[string]jobTimes{}}
	for _, t := range jobTopics {
		if _, err := nc.Subscribe(t, func(m *nats.Msg) {
			var e struct {
				JobID string    `json:"job_id"`
				At    time.Time `json:"at"`
			}
			if json.Unmarshal(m.Data, &e) != nil {
				return
			}
			w.mu.Lock()
			if w.jobs[e.JobID] == nil {
				w.jobs[e.JobID] = jobTimes{}
			}
			if _, ok := w.jobs[e.JobID][t]; !ok {
				w.jobs[e.JobID][t] = e.At
			}
			w.mu.Unlock()
		}); err != nil {
			b.Fatal(err)
		}
	}
	if err := nc.Flush(); err != nil {
		b.Fatal(err)
	}
	return w
}

// times waits a little for the job's last event to arrive and returns them.
func (w *eventWatch) times(id string) jobTimes {
	deadline := time.Now().Add(5 * time.Second)
	for {
		w.mu.Lock()
		t := w.jobs[id]
		_, done := t["job_completed"]
		_, failed := t["job_failed"]
		w.mu.Unlock()
		if done || failed || time.Now().After(deadline) {
			return t
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (w *eventWatch) close() { w.nc.Close() }

// step is the time between two events of a job, 0 if either is missing.
func (t jobTimes) step(from, to string) time.Duration {
	a, ok1 := t[from]
	z, ok2 := t[to]
	if !ok1 || !ok2 {
		return 0
	}
	return z.Sub(a)
}

// stages formats the per-stage times of a job.
func (t jobTimes) stages() string {
	var parts []string
	names := []string{"convert", "extract", "translate", "assemble", "layout", "finish"}
	for i, n := range names {
		if d := t.step(jobTopics[i], jobTopics[i+1]); d > 0 {
			parts = append(parts, fmt.Sprintf("%s %.2f", n, d.Seconds()))
		}
	}
	return strings.Join(parts, ", ")
}

// stallCount counts jobs whose finish step (job_laid_out → job_completed:
// deleting intermediates and one update) took over 5 s, a lost or late
// event, or that the polling client saw completed over 5 s after the
// job_completed event: the stall of issue 13.
type stallCount struct {
	jobs, stalled   int
	worst, worstLag time.Duration
}

func (s *stallCount) add(t jobTimes) {
	d := t.step("job_laid_out", "job_completed")
	if d == 0 {
		return
	}
	s.jobs++
	if d > s.worst {
		s.worst = d
	}
	lag := t.step("job_completed", clientSeen)
	if lag > s.worstLag {
		s.worstLag = lag
	}
	if d > 5*time.Second || lag > 5*time.Second {
		s.stalled++
	}
}

// benchServer starts a server whose embedded NATS listens on a known port
// and watches its job events.
func benchServer(b *testing.B, env ...string) (*server, *eventWatch, string) {
	// DRAGOMAN_BENCH_SERVER_ENV (space-separated NAME=value) is added to
	// every server's environment, e.g. GOMEMLIMIT=400MiB.
	env = append(env, strings.Fields(os.Getenv("DRAGOMAN_BENCH_SERVER_ENV"))...)
	nport := freePort(b)
	s := startServer(b, []string{"--workers", "2", "--nats-listen", nport}, env...)
	s.client.Timeout = 15 * time.Minute // a 50 MB upload is checked before the answer
	// DRAGOMAN_BENCH_PLAN=pro (or another plan) keeps that plan's request
	// limit, to see what polling at the harness's pace costs.
	plan := os.Getenv("DRAGOMAN_BENCH_PLAN")
	id, key, _ := s.account(cmp.Or(plan, "enterprise"))
	if plan == "" {
		s.admin("account", "set-plan", "--account", id, "--plan", "enterprise", "--requests-per-minute", "100000")
	}
	return s, watchEvents(b, "nats://"+nport), key
}

// runJob uploads path and waits for the job; it returns the job, the wall
// time from upload to completed and the job's event times.
func runJob(b *testing.B, s *server, w *eventWatch, key, path string, fields map[string]string) (map[string]any, time.Duration, jobTimes) {
	t0 := time.Now()
	r := s.uploadFile(key, path, fields)
	if r.status != 202 {
		b.Fatalf("upload %s: %d %s", filepath.Base(path), r.status, r.body)
	}
	id := r.json(b)["job_id"].(string)
	j := s.waitJob(key, id, 30*time.Minute)
	took := time.Since(t0)
	t := w.times(id)
	if t != nil {
		t[clientSeen] = t0.Add(took)
	}
	return j, took, t
}

// clientSeen is the jobTimes key of when the client saw the job terminal.
const clientSeen = "client_seen"

// floorScan is the floor of issue 13: unzip the package and scan every XML
// part with encoding/xml's tokenizer.
func floorScan(path string) (time.Duration, error) {
	t0 := time.Now()
	zr, err := zip.OpenReader(path)
	if err != nil {
		return 0, err
	}
	defer zr.Close()
	for _, f := range zr.File {
		if !strings.HasSuffix(f.Name, ".xml") && !strings.HasSuffix(f.Name, ".rels") {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return 0, err
		}
		d := xml.NewDecoder(bufio.NewReaderSize(rc, 64<<10))
		for {
			if _, err := d.RawToken(); err != nil {
				if !errors.Is(err, io.EOF) {
					rc.Close()
					return 0, err
				}
				break
			}
		}
		rc.Close()
	}
	return time.Since(t0), nil
}

var pseudoFields = map[string]string{"target_lang": "Spanish", "source_lang": "English", "translation_mode": "full"}

func benchIdentity(b *testing.B, big string, runs int, stalls *stallCount) []benchRow {
	// DRAGOMAN_BENCH_ENGINES=apertium runs this row with Apertium instead.
	engines := os.Getenv("DRAGOMAN_BENCH_ENGINES")
	if engines == "" {
		engines = "pseudo"
	}
	s, w, key := benchServer(b, "DRAGOMAN_ENGINES="+engines)
	defer s.stop()
	defer w.close()
	st, _ := os.Stat(big)
	var walls, floors []float64
	var last jobTimes
	for range runs {
		fl, err := floorScan(big)
		if err != nil {
			b.Fatal(err)
		}
		floors = append(floors, fl.Seconds())
		t0 := time.Now()
		j, took, t := runJob(b, s, w, key, big, pseudoFields)
		if j["status"] != "completed" {
			b.Fatalf("identity job: %v", j)
		}
		stalls.add(t)
		if done, ok := t["job_completed"]; ok {
			fmt.Fprintf(os.Stderr, "client saw completed %.2f s after the job_completed event\n", t0.Add(took).Sub(done).Seconds())
		}
		walls = append(walls, took.Seconds())
		last = t
		fmt.Fprintf(os.Stderr, "identity 547k words: %.2f s (floor %.2f s): %s\n", took.Seconds(), fl.Seconds(), t.stages())
	}
	wm, fm := median(walls), median(floors)
	return []benchRow{{
		fmt.Sprintf("identity (pseudo) engine, %.1f MB / 547k-word .docx, upload → completed (median of %d)", float64(st.Size())/(1<<20), runs),
		fmt.Sprintf("%.2f s = %.1f× the floor; stages (last run, s): %s", wm, wm/fm, last.stages()),
		fmt.Sprintf("floor (unzip + encoding/xml token scan) %.2f s; goal ≤ 2×", fm),
	}}
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}

func benchApertium(b *testing.B, dir string, words int, stalls *stallCount) benchRow {
	in := filepath.Join(dir, "unique.docx")
	if err := genWordsDocxSeed(in, words, 10, 7); err != nil {
		b.Fatal(err)
	}
	f, _ := os.Open(in)
	st, _ := f.Stat()
	doc, err := docx.ExtractReader(context.Background(), f, st.Size())
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	text := doc.PlainText()
	s, w, key := benchServer(b)
	defer s.stop()
	defer w.close()
	// One small job first: plugin and dictionaries loaded, as on a running server.
	warm := filepath.Join(dir, "warm.docx")
	if err := genWordsDocxSeed(warm, 300, 10, 8); err != nil {
		b.Fatal(err)
	}
	runJob(b, s, w, key, warm, pseudoFields)
	t0 := time.Now()
	cmd := exec.Command("apertium", "-u", "-f", "txt", "eng-spa")
	cmd.Stdin = strings.NewReader(text)
	if out, err := cmd.Output(); err != nil || len(out) == 0 {
		b.Fatalf("apertium -u -f txt: %v", err)
	}
	plain := time.Since(t0)
	j, took, t := runJob(b, s, w, key, in, pseudoFields)
	if j["status"] != "completed" {
		b.Fatalf("apertium job: %v", j)
	}
	stalls.add(t)
	fmt.Fprintf(os.Stderr, "apertium %d unique words: %.2f s vs plain text %.2f s: %s\n", words, took.Seconds(), plain.Seconds(), t.stages())
	return benchRow{
		fmt.Sprintf("Apertium eng→spa, %d words without repetition, upload → completed", words),
		fmt.Sprintf("%.2f s = %.2f× plain text; stages (s): %s", took.Seconds(), took.Seconds()/plain.Seconds(), t.stages()),
		fmt.Sprintf("`apertium -u -f txt eng-spa` on the same text %.2f s; goal ≤ 1.10×", plain.Seconds()),
	}
}

// benchStalls runs small jobs back to back on one server.
func benchStalls(b *testing.B, dir string, n int, stalls *stallCount) {
	s, w, key := benchServer(b, "DRAGOMAN_ENGINES=pseudo")
	defer s.stop()
	defer w.close()
	for i := range n {
		p := filepath.Join(dir, fmt.Sprintf("small-%d.docx", i%10))
		if i < 10 {
			if err := genWordsDocxSeed(p, 500, 10, int64(1000+i)); err != nil {
				b.Fatal(err)
			}
		}
		j, _, t := runJob(b, s, w, key, p, pseudoFields)
		if j["status"] != "completed" {
			b.Fatalf("small job: %v", j)
		}
		stalls.add(t)
		for k := 1; k < len(jobTopics)-2; k++ { // the finish step is counted by add
			if d := t.step(jobTopics[k-1], jobTopics[k]); d > 5*time.Second {
				stalls.stalled++
				fmt.Fprintf(os.Stderr, "stall: job %d, %s → %s took %v\n", i, jobTopics[k-1], jobTopics[k], d)
				break
			}
		}
	}
}

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

// byStage is the largest server RSS sampled during the upload and during
// each stage (between the events that end them), in MB.
func (t *treeRSS) byStage(start time.Time, times jobTimes) string {
	bounds := []struct {
		name string
		from time.Time
		to   string
	}{{"upload", start, "job_accepted"}}
	names := []string{"convert", "extract", "translate", "assemble", "layout", "finish"}
	for i, n := range names {
		bounds = append(bounds, struct {
			name string
			from time.Time
			to   string
		}{n, times[jobTopics[i]], jobTopics[i+1]})
	}
	var parts []string
	for _, b := range bounds {
		to, ok := times[b.to]
		if !ok || b.from.IsZero() {
			continue
		}
		var peak int64
		for _, s := range t.samples {
			if !s.at.Before(b.from) && !s.at.After(to) && s.server > peak {
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

// measureRSS runs one job on a fresh server and returns the server's peak
// RSS (VmHWM) and the process tree's sampled peak, in MB.
func measureRSS(b *testing.B, path string, stalls *stallCount) (server, tree float64, j map[string]any, took time.Duration, stages string) {
	s, w, key := benchServer(b, "DRAGOMAN_ENGINES=pseudo")
	defer s.stop()
	defer w.close()
	t := sampleTree(s.cmd.Process.Pid)
	start := time.Now()
	j, took, times := runJob(b, s, w, key, path, rssFields())
	tree = t.end()
	stages = t.byStage(start, times)
	stalls.add(times)
	server, err := peakRSS(s.cmd.Process.Pid)
	if err != nil {
		b.Fatal(err)
	}
	return server, tree, j, took, stages
}

// rssFields are the memory rows' job fields: English→Spanish, or the
// target DRAGOMAN_BENCH_TARGET names (e.g. Arabic, to measure the RTL
// layout's trees).
func rssFields() map[string]string {
	f := maps.Clone(pseudoFields)
	if t := os.Getenv("DRAGOMAN_BENCH_TARGET"); t != "" {
		f["target_lang"] = t
	}
	return f
}

func benchRSS(b *testing.B, dir, big string, stalls *stallCount) []benchRow {
	heavy := filepath.Join(dir, "heavy50.docx")
	words, err := genHeavyDocx(heavy, 50<<20, zip.Store)
	if err != nil {
		b.Fatal(err)
	}
	part := filepath.Join(dir, "part128.docx")
	pwords, err := genHeavyDocx(part, 127<<20, zip.Deflate)
	if err != nil {
		b.Fatal(err)
	}
	var rows []benchRow
	// DRAGOMAN_BENCH_RSS (comma list of heavy, words, part) picks documents.
	docs := envList("DRAGOMAN_BENCH_RSS", "heavy,words,part")
	for _, c := range []struct {
		id, name, path string
	}{
		{"heavy", fmt.Sprintf("50 MB text-heavy .docx (%d words, one run per word, stored)", words), heavy},
		{"words", "the 547k-word .docx", big},
		{"part", fmt.Sprintf("a 127 MB document.xml (the 128 MB part limit; %d words, deflated)", pwords), part},
	} {
		if !docs[c.id] {
			continue
		}
		st, _ := os.Stat(c.path)
		srv, tree, j, took, stages := measureRSS(b, c.path, stalls)
		fmt.Fprintf(os.Stderr, "peak RSS, %s: server %.0f MB, tree %.0f MB; job %v in %.1f s (%v); server MB by stage: %s\n", c.name, srv, tree, j["status"], took.Seconds(), j["error"], stages)
		status := fmt.Sprint(j["status"])
		if e, ok := j["error"].(string); ok && e != "" {
			status += ": " + e
		}
		rows = append(rows, benchRow{
			fmt.Sprintf("server peak RSS, %s, %.1f MB upload", c.name, float64(st.Size())/(1<<20)),
			fmt.Sprintf("%.0f MB server, %.0f MB process tree (job %s in %.1f s); server MB by stage: %s", srv, tree, status, took.Seconds(), stages),
			"goal ≤ 256 MB server, bounded by design; issue 15: < 512 MB for any accepted upload",
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

// sofficeProcs lists the soffice processes whose ancestry includes pid.
func sofficeProcs(pid int) (n int, rssMB float64) {
	procs, _ := filepath.Glob("/proc/[0-9]*/stat")
	parent := map[int]int{}
	var office []int
	rss := map[int]int64{}
	for _, p := range procs {
		raw, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		i := bytes.IndexByte(raw, '(')
		j := bytes.LastIndexByte(raw, ')')
		if i < 0 || j < i {
			continue
		}
		me, _ := strconv.Atoi(strings.TrimSpace(string(raw[:i])))
		f := strings.Fields(string(raw[j+2:]))
		if len(f) < 22 {
			continue
		}
		parent[me], _ = strconv.Atoi(f[1])
		pages, _ := strconv.ParseInt(f[21], 10, 64)
		rss[me] = pages * int64(os.Getpagesize())
		if strings.HasPrefix(string(raw[i+1:j]), "soffice") {
			office = append(office, me)
		}
	}
	for _, o := range office {
		for p, hops := parent[o], 0; p > 1 && hops < 20; p, hops = parent[p], hops+1 {
			if p == pid {
				n++
				rssMB += float64(rss[o]) / (1 << 20)
				break
			}
		}
	}
	return n, rssMB
}

func benchOffice(b *testing.B, dir string, stalls *stallCount) []benchRow {
	odt := filepath.Join("..", "..", "testdata", "corpus", "odt", "odftoolkit-Text1.odt")
	st, err := os.Stat(odt)
	if err != nil {
		b.Fatal(err)
	}
	s, w, key := benchServer(b, "DRAGOMAN_ENGINES=pseudo")
	defer s.stop()
	defer w.close()
	time.Sleep(3 * time.Second) // whatever starts with the server has started
	atStart, rssStart := sofficeProcs(s.cmd.Process.Pid)
	small := filepath.Join(dir, "office-small.docx")
	if err := genWordsDocxSeed(small, 500, 10, 3); err != nil {
		b.Fatal(err)
	}
	for range 3 {
		_, _, t := runJob(b, s, w, key, small, pseudoFields)
		stalls.add(t)
	}
	afterDocx, _ := sofficeProcs(s.cmd.Process.Pid)
	rows := []benchRow{{
		"soffice processes of the server after start and after 3 .docx jobs",
		fmt.Sprintf("%d at start (%.0f MB RSS), %d after the .docx jobs", atStart, rssStart, afterDocx),
		"goal: none until the first conversion",
	}}
	var conv []float64
	for range 2 {
		j, _, t := runJob(b, s, w, key, odt, pseudoFields)
		if j["status"] != "completed" {
			b.Fatalf(".odt job: %v", j)
		}
		stalls.add(t)
		conv = append(conv, t.step("job_accepted", "job_converted").Seconds())
	}
	// The peer: a cold soffice with a fresh profile.
	profile := filepath.Join(dir, "lo-profile")
	t0 := time.Now()
	cmd := exec.Command("soffice", "--headless", "--norestore", "-env:UserInstallation=file://"+profile,
		"--convert-to", "docx", "--outdir", filepath.Join(dir, "lo-out"), odt)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("soffice --convert-to: %v %s", err, out)
	}
	cold := time.Since(t0)
	rows = append(rows, benchRow{
		fmt.Sprintf("%.1f MB .odt (odftoolkit-Text1) conversion, job_accepted → job_converted", float64(st.Size())/(1<<20)),
		fmt.Sprintf("first %.2f s (cold for the server), second %.2f s (warm)", conv[0], conv[1]),
		fmt.Sprintf("cold `soffice --convert-to docx`, fresh profile: %.2f s", cold.Seconds()),
	})
	return rows
}
