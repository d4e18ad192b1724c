package e2e

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// subscriberProc is the example event subscriber (app/examples/subscriber)
// running as its own process.
type subscriberProc struct {
	cmd  *exec.Cmd
	logs *syncBuffer
}

// syncBuffer is a bytes.Buffer that a process writes while the test reads.
func buildSubscriber(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "subscriber")
	cmd := exec.Command("go", "build", "-o", bin, "../examples/subscriber")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build the example subscriber: %v\n%s", err, out)
	}
	return bin
}

func startSubscriber(t *testing.T, bin, url, group, out string) *subscriberProc {
	t.Helper()
	p := &subscriberProc{logs: &syncBuffer{}}
	p.cmd = exec.Command(bin, "--nats", url, "--group", group, "--out", out)
	p.cmd.Stdout, p.cmd.Stderr = p.logs, p.logs
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.kill)
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(p.logs.String(), "subscriber: group") {
		if time.Now().After(deadline) {
			t.Fatalf("subscriber did not start:\n%s", p.logs)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return p
}

func (p *subscriberProc) kill() {
	if p.cmd != nil && p.cmd.Process != nil {
		_ = p.cmd.Process.Signal(syscall.SIGKILL)
		_ = p.cmd.Wait()
		p.cmd = nil
	}
}

// subscribedEvents reads the subscriber's JSON lines: topics seen per job.
func subscribedEvents(t *testing.T, path string) map[string]map[string]int {
	t.Helper()
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got := map[string]map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var l struct {
			Topic     string    `json:"topic"`
			Version   string    `json:"version"`
			EventID   string    `json:"event_id"`
			JobID     string    `json:"job_id"`
			AccountID string    `json:"account_id"`
			Stage     string    `json:"stage"`
			Status    string    `json:"status"`
			At        time.Time `json:"at"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("subscriber line %q: %v", sc.Text(), err)
		}
		if l.Version != "1" || l.EventID == "" || l.AccountID == "" || l.Stage == "" || l.Status == "" || l.At.IsZero() {
			t.Errorf("event does not follow contract version 1: %s", sc.Text())
		}
		if got[l.JobID] == nil {
			got[l.JobID] = map[string]int{}
		}
		got[l.JobID][l.Topic]++
	}
	return got
}

// stageTopics are the events of a job that completes.
var stageTopics = []string{"job_accepted", "job_converted", "job_extracted", "job_translated", "job_assembled", "job_laid_out", "job_completed"}

// runJobs uploads n documents at once, waits for them and returns their
// ids and mean processing time (created to completed).
func runJobs(t *testing.T, s *server, key string, n int) ([]string, time.Duration) {
	t.Helper()
	var ids []string
	for range n {
		r := s.uploadFile(key, englishDocx, map[string]string{"target_lang": "Spanish", "source_lang": "English"})
		if r.status != 202 {
			t.Fatalf("upload: %d %s", r.status, r.body)
		}
		ids = append(ids, r.json(t)["job_id"].(string))
	}
	var total time.Duration
	for _, id := range ids {
		j := s.waitJob(key, id, 2*time.Minute)
		if j["status"] != "completed" {
			t.Fatalf("job %s: %v", id, j)
		}
		created, _ := time.Parse(time.RFC3339Nano, j["created_at"].(string))
		done, _ := time.Parse(time.RFC3339Nano, j["completed_at"].(string))
		total += done.Sub(created)
	}
	return ids, total / time.Duration(n)
}

// TestEventSubscriberReceivesEveryStageEvent runs the example subscriber
// as an external process against the embedded NATS on --nats-listen: it
// receives every stage event of several jobs, including those published
// while it was killed, and the pipeline is not slower with it.
func TestEventSubscriberReceivesEveryStageEvent(t *testing.T) {
	listen := freePort(t)
	s := startServer(t, []string{"--nats-listen", listen}, "DRAGOMAN_ENGINES=pseudo")
	url := "nats://" + listen
	// The line follows the start, which the harness may see first.
	for i := 0; !contains(s.logs.Bytes(), "events on "+url); i++ {
		if i == 50 {
			t.Errorf("the server does not print where its events are:\n%s", s.logs)
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	_, key, _ := s.account("enterprise")
	subBin := buildSubscriber(t)
	out := filepath.Join(t.TempDir(), "events.jsonl")

	// Without a subscriber (its durable group does not exist yet; it
	// still gets these events later, from the stream).
	before, without := runJobs(t, s, key, 4)

	sub := startSubscriber(t, subBin, url, "e2e", out)
	during, with := runJobs(t, s, key, 4)
	t.Logf("mean job time without a subscriber %v, with one %v", without, with)
	if with > 3*without+2*time.Second {
		t.Errorf("jobs took %v with a subscriber, %v without", with, without)
	}

	// Killed, it misses nothing: its group resumes where it acknowledged.
	sub.kill()
	after, _ := runJobs(t, s, key, 3)
	startSubscriber(t, subBin, url, "e2e", out)

	all := append(append(append([]string(nil), before...), during...), after...)
	deadline := time.Now().Add(time.Minute)
	for {
		got := subscribedEvents(t, out)
		var missing []string
		for _, id := range all {
			for _, topic := range stageTopics {
				if got[id][topic] == 0 {
					missing = append(missing, id[:8]+"/"+topic)
				}
			}
			if got[id]["job_failed"] != 0 {
				t.Fatalf("job %s: job_failed event for a completed job", id)
			}
		}
		if len(missing) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the subscriber never received %d events: %v", len(missing), missing)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
