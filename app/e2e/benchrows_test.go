package e2e

import (
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/docx"
)

var pseudoFields = map[string]string{"target_lang": "Spanish", "source_lang": "English", "translation_mode": "full"}

// benchIdentity is the pseudo engine's row for a generated document of
// words words: each run a new document (another seed), so no run is
// answered by the memory of another.
func benchIdentity(b *testing.B, dir, name string, words, runs int, seed int64, sc *smallCount) benchRow {
	// DRAGOMAN_BENCH_ENGINES=apertium runs this row with Apertium instead.
	engines := os.Getenv("DRAGOMAN_BENCH_ENGINES")
	if engines == "" {
		engines = "pseudo"
	}
	s, w, key := benchServer(b, "DRAGOMAN_ENGINES="+engines)
	defer s.stop()
	defer w.close()
	var walls, cpus, floors, floorCPUs []float64
	var last ranJob
	var size int64
	for i := range runs {
		path := filepath.Join(dir, fmt.Sprintf("%s-%d.docx", name, i))
		if err := genWordsDocxSeed(path, words, 10, seed+int64(i)); err != nil {
			b.Fatal(err)
		}
		st, _ := os.Stat(path)
		size = st.Size()
		fw, fc, err := floorScan(path)
		if err != nil {
			b.Fatal(err)
		}
		j := runJob(b, s, w, key, path, pseudoFields)
		if j.job["status"] != "completed" {
			b.Fatalf("identity job: %v", j.job)
		}
		sc.lag(j)
		walls, cpus = append(walls, j.wall.Seconds()), append(cpus, j.cpu.Seconds())
		floors, floorCPUs = append(floors, fw.Seconds()), append(floorCPUs, fc.Seconds())
		last = j
		fmt.Fprintf(os.Stderr, "identity %s: %.2f s, CPU %.2f s (floor %.2f s, CPU %.3f s): %s\n", name, j.wall.Seconds(), j.cpu.Seconds(), fw.Seconds(), fc.Seconds(), j.times.phases())
	}
	wm, cm, fm, fcm := median(walls), median(cpus), median(floors), median(floorCPUs)
	return benchRow{
		fmt.Sprintf("identity (pseudo) engine, %s (%.1f MB, %dk words, no sentence repeated), upload → job_completed (median of %d)", name, float64(size)/(1<<20), words/1000, runs),
		fmt.Sprintf("%.2f s = **%.1f×** the floor; CPU (server and plugins) %.2f s = %.1f× the floor's; last run's phases (s): %s", wm, wm/fm, cm, cm/fcm, last.times.phases()),
		fmt.Sprintf("floor (unzip + encoding/xml token scan) %.2f s, CPU %.3f s; goal ≤ 2×", fm, fcm),
	}
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}

func benchApertium(b *testing.B, dir string, words int, sc *smallCount) benchRow {
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
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	plainCPU := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	before := cpuByRole(s.cmd.Process.Pid)
	j := runJob(b, s, w, key, in, pseudoFields)
	if j.job["status"] != "completed" {
		b.Fatalf("apertium job: %v", j.job)
	}
	sc.lag(j)
	after := cpuByRole(s.cmd.Process.Pid)
	srv, plug, eng := after[0]-before[0], after[1]-before[1], after[2]-before[2]
	translation := j.times.step("job_started", "job_translated")
	fmt.Fprintf(os.Stderr, "apertium %d unique words: %.2f s vs plain text %.2f s: %s; CPU server %.2f, plugin %.2f, apertium %.2f (plain %.2f)\n",
		words, j.wall.Seconds(), plain.Seconds(), j.times.phases(), srv.Seconds(), plug.Seconds(), eng.Seconds(), plainCPU.Seconds())
	return benchRow{
		fmt.Sprintf("Apertium eng→spa, %d words without repetition, upload → job_completed", words),
		fmt.Sprintf("%.2f s = **%.2f×** plain text; translation (worker start → last batch) %.2f s = %.2f×; phases (s): %s. CPU: Apertium's pipelines %.2f s, the plugin's encode/decode/repair %.2f s, the job around them (server) %.2f s",
			j.wall.Seconds(), j.wall.Seconds()/plain.Seconds(), translation.Seconds(), translation.Seconds()/plain.Seconds(), j.times.phases(), eng.Seconds(), plug.Seconds(), srv.Seconds()),
		fmt.Sprintf("`apertium -u -f txt eng-spa` on the same text %.2f s (CPU %.2f s); goal ≤ 1.10×", plain.Seconds(), plainCPU.Seconds()),
	}
}

// cpuByRole is the CPU of a server's process group by role: the server,
// the engine plugins, and the engines' own processes (Apertium's
// pipelines, which the Apertium plugin runs: theirs once reaped too).
func cpuByRole(pgid int) [3]time.Duration {
	var out [3]time.Duration
	for _, p := range groupProcs(pgid) {
		switch {
		case p.comm == "dragoman":
			out[0] += p.own
		case strings.HasPrefix(p.comm, "dragoman-provid"): // comm is cut at 15 bytes
			out[1] += p.own
			out[2] += p.reaped
		default:
			out[2] += p.own + p.reaped
		}
	}
	return out
}

// smallCount follows the client's lag and stalls over every job of the
// bench, and the small jobs' times.
type smallCount struct {
	jobs, stalled int
	worstLag      time.Duration
	walls         []float64
	firstStart    []float64 // upload → job_started
	firstPhase    []float64 // upload → job_extracted
}

func (c *smallCount) lag(j ranJob) {
	c.jobs++
	c.worstLag = max(c.worstLag, j.lag)
	if j.lag > 5*time.Second || j.times.step("job_laid_out", "job_completed") > 5*time.Second {
		c.stalled++
	}
}

// benchSmall runs n small jobs back to back on one server (the issue's
// "12 small jobs back to back").
func benchSmall(b *testing.B, dir string, n int, sc *smallCount) []benchRow {
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
		j := runJob(b, s, w, key, p, pseudoFields)
		if j.job["status"] != "completed" {
			b.Fatalf("small job: %v", j.job)
		}
		sc.lag(j)
		sc.walls = append(sc.walls, j.wall.Seconds())
		sc.firstStart = append(sc.firstStart, j.times.step("upload", "job_started").Seconds())
		sc.firstPhase = append(sc.firstPhase, j.times.step("upload", "job_extracted").Seconds())
	}
	return []benchRow{{
		fmt.Sprintf("%d small jobs (500 words) back to back, upload → job_completed", n),
		fmt.Sprintf("median %.2f s, max %.2f s", median(sc.walls), slices.Max(sc.walls)),
		"keep: median 0.48 s, max 0.64 s (polled by the client then; here to the event)",
	}, {
		"time from upload to the first progress event (small jobs)",
		fmt.Sprintf("job_started median %.3f s (max %.3f), job_extracted median %.3f s", median(sc.firstStart), slices.Max(sc.firstStart), median(sc.firstPhase)),
		"reported",
	}}
}

// rssFields are the memory rows' job fields, to target.
func rssFields(target string) map[string]string {
	f := maps.Clone(pseudoFields)
	f["target_lang"] = target
	return f
}
