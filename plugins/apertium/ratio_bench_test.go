package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/pluginhost"
	"github.com/dragoman-translate/dragoman/adapters/sqlstore"
	"github.com/dragoman-translate/dragoman/core/segment"
	"github.com/dragoman-translate/dragoman/core/translate"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
)

// cpuTime is the CPU time of this process and its reaped children.
func cpuTime() time.Duration {
	self, kids := cpuTimes()
	return self + kids
}

// cpuTimes is the CPU time of this process, and of its reaped children.
func cpuTimes() (self, kids time.Duration) {
	var s, k syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &s)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &k)
	tv := func(t syscall.Timeval) time.Duration { return time.Duration(t.Nano()) }
	return tv(s.Utime) + tv(s.Stime), tv(k.Utime) + tv(k.Stime)
}

// ratioSetup is one way of running the translation side.
type ratioSetup struct {
	name    string
	procs   string // DRAGOMAN_APERTIUM_PROCESSES for the plugin; "" inherits
	syncTM  bool   // memory writes on the critical path, as before write-behind
	perCall int    // Translator.BatchSegments
	inFight int    // Translator.Concurrency
}

// BenchmarkApertiumVsPlainText is the measure for Apertium as the
// limit: a document of distinct English sentences (nothing to deduplicate,
// every tenth with a bold word) translated en→es by the core translator
// through the real plugin process, with a fresh SQLite translation memory
// (so nothing is a hit), against `apertium -u -f txt eng-spa` on the same
// text. Each iteration runs plain Apertium and each setup in turn, so load
// on a shared machine hits them alike. Reported per setup: wall seconds
// and ratio to plain text (the job's wait), CPU ratio (this process, the
// plugin and its apertium pipelines, memory writes included), and the CPU
// seconds of this process alone (translator, memory, gRPC: the core's own
// share). On a shared machine run several iterations (-benchtime 3x): CPU
// time under contention varies by 10-20 % from run to run too.
//
// Setups: "single" is the translator as it was (one pipeline per batch,
// memory written on the critical path); "default" is the product's
// defaults, which DRAGOMAN_APERTIUM_PROCESSES, DRAGOMAN_BATCH_SEGMENTS
// and DRAGOMAN_ENGINE_CONCURRENCY override. Size: DRAGOMAN_BENCH_WORDS
// (default 100,000).
//
//	go test -run '^$' -bench ApertiumVsPlainText -benchtime 1x ./plugins/apertium/
func BenchmarkApertiumVsPlainText(b *testing.B) {
	words := 100_000
	if v, err := strconv.Atoi(os.Getenv("DRAGOMAN_BENCH_WORDS")); err == nil && v > 0 {
		words = v
	}
	envInt := func(k string) int { n, _ := strconv.Atoi(os.Getenv(k)); return n }
	plain, tagged := uniqueSentences(words/12, 42) // 12 words a sentence
	text := strings.Join(plain, "\n") + "\n"
	setups := []ratioSetup{
		{name: "single", procs: "1", syncTM: true},
		{name: "default", procs: os.Getenv(envProcesses), perCall: envInt("DRAGOMAN_BATCH_SEGMENTS"), inFight: envInt("DRAGOMAN_ENGINE_CONCURRENCY")},
	}
	dir := builtPlugin(b)
	ctx := context.Background()

	var plainWall, plainCPU time.Duration
	wall := make([]time.Duration, len(setups))
	cpu := make([]time.Duration, len(setups))
	own := make([]time.Duration, len(setups))
	for i := 0; i < b.N; i++ {
		c0, t0 := cpuTime(), time.Now()
		cmd := exec.Command("apertium", "-u", "-f", "txt", "eng-spa")
		cmd.Stdin = strings.NewReader(text)
		if out, err := cmd.Output(); err != nil || len(out) == 0 {
			b.Fatal("apertium -f txt: ", err)
		}
		plainWall += time.Since(t0)
		plainCPU += cpuTime() - c0

		for k, s := range setups {
			if s.procs != "" {
				b.Setenv(envProcesses, s.procs)
			}
			st, err := sqlstore.OpenSQLite(filepath.Join(b.TempDir(), "tm.db"))
			if err != nil {
				b.Fatal(err)
			}
			self0, _ := cpuTimes()
			c0 := cpuTime()
			h, err := pluginhost.New(dir, []string{"apertium"}, nil, pluginhost.WithHealthInterval(0), pluginhost.WithStartTimeout(60*time.Second))
			if err != nil {
				b.Fatal(err)
			}
			if _, err := h.Engines(ctx); err != nil { // started and listed, as at server start
				b.Fatal(err)
			}
			tr := &translate.Translator{Engines: h, TM: st, BatchSegments: s.perCall, Concurrency: s.inFight}
			if s.syncTM {
				tr.MemoryQueue = 1 // past it, each batch writes its own entries
			}
			doc := &segment.Document{Format: "docx"}
			for _, t := range tagged {
				doc.Units = append(doc.Units, segment.Unit{Segments: []segment.Segment{{Source: t}}})
			}
			t0 := time.Now()
			res, err := tr.Translate(ctx, doc, "en", "es", translation.Full)
			wall[k] += time.Since(t0)
			if err != nil {
				b.Fatal(err)
			}
			if res.Metrics.CacheHits != 0 || res.Metrics.Segments != len(tagged) || doc.Units[1].Segments[0].Target == tagged[1] {
				b.Fatalf("%s: %+v, second target %q", s.name, res.Metrics, doc.Units[1].Segments[0].Target)
			}
			if err := tr.Close(ctx); err != nil {
				b.Fatal(err)
			}
			h.Close() // reaps the plugin, whose CPU includes its pipelines'
			cpu[k] += cpuTime() - c0
			self1, _ := cpuTimes()
			own[k] += self1 - self0
			st.Close()
		}
	}
	n := float64(b.N)
	b.ReportMetric(float64(len(strings.Fields(text))), "words")
	b.ReportMetric(plainWall.Seconds()/n, "plain-s")
	b.ReportMetric(plainCPU.Seconds()/n, "plain-cpu-s")
	for k, s := range setups {
		b.ReportMetric(wall[k].Seconds()/n, s.name+"-s")
		b.ReportMetric(float64(wall[k])/float64(plainWall), s.name+"-ratio")
		b.ReportMetric(float64(cpu[k])/float64(plainCPU), s.name+"-cpu-ratio")
		b.ReportMetric(own[k].Seconds()/n, s.name+"-core-cpu-s")
	}
}
