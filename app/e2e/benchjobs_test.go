package e2e

import (
	"archive/zip"
	"bufio"
	"cmp"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// jobTimes are a job's events as a subscriber sees them: when each topic's
// event arrived (the bench's clock: upload to completed is measured on
// one clock, without the polling client's lag).
type jobTimes map[string]time.Time

// eventWatch subscribes to the job topics of a server's embedded NATS.
type eventWatch struct {
	nc   *nats.Conn
	mu   sync.Mutex
	jobs map[string]jobTimes
}

var jobTopics = []string{"job_accepted", "job_started", "job_converted", "job_extracted", "job_translated", "job_laid_out", "job_completed", "job_failed"}

func watchEvents(b *testing.B, url string) *eventWatch {
	nc, err := nats.Connect(url)
	if err != nil {
		b.Fatalf("connect to the server's NATS: %v", err)
	}
	w := &eventWatch{nc: nc, jobs: map[string]jobTimes{}}
	for _, t := range jobTopics {
		if _, err := nc.Subscribe(t, func(m *nats.Msg) {
			now := time.Now()
			var e struct {
				JobID string `json:"job_id"`
			}
			if json.Unmarshal(m.Data, &e) != nil {
				return
			}
			w.mu.Lock()
			if w.jobs[e.JobID] == nil {
				w.jobs[e.JobID] = jobTimes{}
			}
			if _, ok := w.jobs[e.JobID][t]; !ok {
				w.jobs[e.JobID][t] = now
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

// wait waits for the job's terminal event and returns its events.
func (w *eventWatch) wait(id string, timeout time.Duration) jobTimes {
	deadline := time.Now().Add(timeout)
	for {
		w.mu.Lock()
		t := w.jobs[id]
		_, done := t["job_completed"]
		_, failed := t["job_failed"]
		w.mu.Unlock()
		if done || failed || time.Now().After(deadline) {
			return t
		}
		time.Sleep(2 * time.Millisecond)
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

// phases formats the times of a job's phases: the wait for a worker, the
// conversion, the read (ending with words counted and reserved), the rest
// of the translation, the rest of the render and store, the finish.
func (t jobTimes) phases() string {
	var parts []string
	for _, p := range []struct{ name, from, to string }{
		{"queue", "upload", "job_started"}, {"convert", "job_started", "job_converted"},
		{"read", "job_converted", "job_extracted"}, {"translate", "job_extracted", "job_translated"},
		{"render", "job_translated", "job_laid_out"}, {"finish", "job_laid_out", "job_completed"},
	} {
		if d := t.step(p.from, p.to); d > 0 {
			parts = append(parts, fmt.Sprintf("%s %.2f", p.name, d.Seconds()))
		}
	}
	return strings.Join(parts, ", ")
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

// ranJob is what runJob saw of a job.
type ranJob struct {
	job   map[string]any
	times jobTimes
	wall  time.Duration // upload to the job_completed event
	cpu   time.Duration // the server's process group (plugins included) during the job
	lag   time.Duration // job_completed to the polling client seeing it
}

// runJob uploads path and waits for the job's last event, then for the
// polling client to see it.
func runJob(b *testing.B, s *server, w *eventWatch, key, path string, fields map[string]string) ranJob {
	c0 := groupCPU(s.cmd.Process.Pid)
	t0 := time.Now()
	r := s.uploadFile(key, path, fields)
	if r.status != 202 {
		b.Fatalf("upload %s: %d %s", filepath.Base(path), r.status, r.body)
	}
	id := r.json(b)["job_id"].(string)
	t := w.wait(id, 30*time.Minute)
	end := t["job_completed"]
	if end.IsZero() {
		end = cmp.Or(t["job_failed"], time.Now())
	}
	cpu := groupCPU(s.cmd.Process.Pid) - c0
	j := s.waitJob(key, id, 30*time.Minute)
	if t == nil {
		t = jobTimes{}
	}
	t["upload"] = t0
	return ranJob{job: j, times: t, wall: end.Sub(t0), cpu: cpu, lag: time.Since(end)}
}

// floorScan is the floor of issue 13: unzip the package and scan every XML
// part with encoding/xml's tokenizer. It returns the wall time and this
// process's CPU time.
func floorScan(path string) (wall, cpu time.Duration, err error) {
	t0, c0 := time.Now(), selfCPU()
	zr, err := zip.OpenReader(path)
	if err != nil {
		return 0, 0, err
	}
	defer zr.Close()
	for _, f := range zr.File {
		if !strings.HasSuffix(f.Name, ".xml") && !strings.HasSuffix(f.Name, ".rels") {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return 0, 0, err
		}
		d := xml.NewDecoder(bufio.NewReaderSize(rc, 64<<10))
		for {
			if _, err := d.RawToken(); err != nil {
				if !errors.Is(err, io.EOF) {
					rc.Close()
					return 0, 0, err
				}
				break
			}
		}
		rc.Close()
	}
	return time.Since(t0), selfCPU() - c0, nil
}

// selfCPU is this process's CPU time.
func selfCPU() time.Duration {
	var r syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &r)
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}

// procCPU is a process's CPU by command name: its own (utime+stime) and
// that of its children it reaped (cutime+cstime), from /proc.
type procCPU struct {
	comm        string
	own, reaped time.Duration
}

// groupProcs are the processes of group pgid.
func groupProcs(pgid int) []procCPU {
	tick := 100 * time.Millisecond / 10 // USER_HZ is 100
	procs, _ := filepath.Glob("/proc/[0-9]*/stat")
	var out []procCPU
	for _, p := range procs {
		raw, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		i, j := strings.IndexByte(string(raw), '('), strings.LastIndexByte(string(raw), ')')
		if i < 0 || j < i {
			continue
		}
		f := strings.Fields(string(raw[j+2:]))
		if len(f) < 22 {
			continue
		}
		if g, _ := strconv.Atoi(f[2]); g != pgid {
			continue
		}
		n := func(k int) time.Duration { v, _ := strconv.ParseInt(f[k], 10, 64); return time.Duration(v) * tick }
		out = append(out, procCPU{comm: string(raw[i+1 : j]), own: n(11) + n(12), reaped: n(13) + n(14)})
	}
	return out
}

// groupCPU is the CPU time of the process group pgid, reaped children
// included.
func groupCPU(pgid int) time.Duration {
	var sum time.Duration
	for _, p := range groupProcs(pgid) {
		sum += p.own + p.reaped
	}
	return sum
}
