package e2e

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// groupUsage is the CPU time (own and reaped children's) and the summed
// peak RSS of the live processes in a server's process group: the service
// and its plugins; the Apertium pipelines a plugin runs count in its
// children's CPU time once they exit.
func groupUsage(b *testing.B, pgid int) (cpu time.Duration, peakRSS int64) {
	b.Helper()
	procs, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range procs {
		raw, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(raw, ')')
		f := strings.Fields(string(raw[i+2:])) // f[0] is field 3 (state)
		if len(f) < 15 {
			continue
		}
		if g, _ := strconv.Atoi(f[2]); g != pgid {
			continue
		}
		var ticks int64
		for _, k := range []int{11, 12, 13, 14} { // utime stime cutime cstime
			n, _ := strconv.ParseInt(f[k], 10, 64)
			ticks += n
		}
		cpu += time.Duration(ticks) * time.Second / 100 // USER_HZ
		status, _ := os.ReadFile(filepath.Join(filepath.Dir(p), "status"))
		for _, line := range strings.Split(string(status), "\n") {
			if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
				kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
				peakRSS += kb * 1024
			}
		}
	}
	return cpu, peakRSS
}

// BenchmarkSizing measures what one worker core does with the benchmark
// documents (generated like BenchmarkApertiumEndToEnd's, 300, 2,000 and
// 20,000 words): a batch of jobs (DRAGOMAN_SIZING_JOBS, default 12; a quarter
// of it for 20,000 words) submitted at
// once to one `serve` process (--workers 2, Apertium), timed by the CPU time
// the process group spends, so that a busy shared machine does not skew it.
// It reports jobs per minute of one core (jobs_per_core_min), words per CPU
// second, wall-clock jobs per minute on this machine, and the peak RSS of the
// service with its plugins.
func BenchmarkSizing(b *testing.B) {
	jobs := 12
	if v, err := strconv.Atoi(os.Getenv("DRAGOMAN_SIZING_JOBS")); err == nil && v > 0 {
		jobs = v
	}
	dir := b.TempDir()
	// Every job gets a document of its own (other random sentences), so
	// the translation memory saves nothing.
	for _, words := range []int{300, 2000, 20000} {
		b.Run(fmt.Sprintf("%d_words", words), func(b *testing.B) {
			n := jobs
			if words >= 20000 {
				n = max(jobs/4, 2)
			}
			var paths []string
			for i := range n + 1 {
				p := filepath.Join(dir, fmt.Sprintf("%d-%d.docx", words, i))
				if err := genWordsDocxSeed(p, words, 10, int64(100+i)); err != nil {
					b.Fatal(err)
				}
				paths = append(paths, p)
			}
			for range b.N {
				s := startServer(b, []string{"--workers", "2"})
				id, key, _ := s.account("pro")
				s.admin("account", "set-plan", "--account", id, "--plan", "pro", "--requests-per-minute", "100000", "--limit-words", "1000000000")
				fields := map[string]string{"target_lang": "Spanish", "source_lang": "English"}
				// One job first: plugins started, dictionaries in the page cache.
				r := s.uploadFile(key, paths[n], fields)
				if j := s.waitJob(key, r.json(b)["job_id"].(string), 10*time.Minute); j["status"] != "completed" {
					b.Fatalf("warm-up job: %v", j)
				}
				pgid := s.cmd.Process.Pid
				cpu0, _ := groupUsage(b, pgid)
				t0 := time.Now()
				var ids []string
				for i := range n {
					r := s.uploadFile(key, paths[i], fields)
					if r.status != 202 {
						b.Fatalf("upload: %d %s", r.status, r.body)
					}
					ids = append(ids, r.json(b)["job_id"].(string))
				}
				total := 0.0
				for _, id := range ids {
					j := s.waitJob(key, id, 30*time.Minute)
					if j["status"] != "completed" {
						b.Fatalf("job: %v", j)
					}
					total += j["total_words"].(float64)
				}
				wall := time.Since(t0)
				cpu1, rss := groupUsage(b, pgid)
				cpu := cpu1 - cpu0
				b.ReportMetric(float64(n)/cpu.Minutes(), "jobs_per_core_min")
				b.ReportMetric(total/cpu.Seconds(), "words_per_cpu_s")
				b.ReportMetric(float64(n)/wall.Minutes(), "jobs_per_min_wall")
				b.ReportMetric(float64(rss)/(1<<20), "peak_rss_MB")
				fmt.Fprintf(os.Stderr, "%d words: %d jobs of %.0f words, %.1f CPU s, %.1f s wall, peak RSS %.0f MB (service + plugins)\n",
					words, n, total/float64(n), cpu.Seconds(), wall.Seconds(), float64(rss)/(1<<20))
				s.stop()
			}
		})
	}
}
