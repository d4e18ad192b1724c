package e2e

import (
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/blobstore/s3test"
	"github.com/dragoman-translate/dragoman/adapters/sqlstore/pgtest"
)

// outageLength is the outage each test makes: 120 s (issue 27), or
// DRAGOMAN_TEST_OUTAGE (a Go duration) for a quicker run while developing.
func outageLength(t *testing.T) time.Duration {
	if v := os.Getenv("DRAGOMAN_TEST_OUTAGE"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("DRAGOMAN_TEST_OUTAGE: %v", err)
		}
		return d
	}
	return 120 * time.Second
}

// TestScaleOutOutages takes PostgreSQL, the S3 server and NATS down for
// 120 s each, in three deployments of their own (2 api and 2 worker
// processes each) run side by side, while clients submit, poll, download
// and cancel. Every job reaches exactly one terminal state and its webhook,
// nothing that should be gone stays in the bucket, and every request
// refused meanwhile got 503 with Retry-After and a reason, quickly.
//
// The three run at once whatever go test's -parallel (GOMAXPROCS, 2 on
// the CI machine): t.Run from goroutines, so the test's wall time is about
// one outage's, not three.
func TestScaleOutOutages(t *testing.T) {
	outage := outageLength(t)
	began := time.Now()
	var wg sync.WaitGroup
	for _, kind := range []string{"postgres", "s3", "nats"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.Run(kind, func(t *testing.T) { runOutage(t, kind, outage) })
		}()
	}
	wg.Wait()
	t.Logf("three %s outages side by side took %s", outage, time.Since(began).Round(time.Second))
}

// outageCluster is a scale-out deployment whose PostgreSQL, S3 server and
// NATS the test stops and starts again.
type outageCluster struct {
	*scaleOut
	pg           *pgtest.Server
	nats         *natsServer
	a, b, w1, w2 *server
	key          string
	rcv          *receiver
}

func startOutageCluster(t *testing.T, extra ...string) *outageCluster {
	// Durable, as in production: stopped like a crash, a server with
	// asynchronous commits loses the jobs it accepted last (seen here: a
	// job answered 202 a moment before the stop was gone after it).
	pg, err := pgtest.StartDurable()
	if err != nil {
		t.Fatalf("PostgreSQL needed: %v", err)
	}
	t.Cleanup(pg.Remove)
	c := &outageCluster{pg: pg, nats: startNATSServer(t)}
	c.scaleOut = newScaleOut(pg.Database(t), s3test.Start(t), c.nats.url())
	c.args = append(c.args, extra...)
	c.a, c.b = c.process(t, "api"), c.process(t, "api")
	c.w1, c.w2 = c.process(t, "worker"), c.process(t, "worker")
	id := c.admin(t, "account", "create", "--plan", "pro", "--name", "outage")["account_id"].(string)
	c.admin(t, "account", "set-plan", "--account", id, "--plan", "pro", "--requests-per-minute", "100000")
	c.key = c.admin(t, "key", "create", "--account", id)["api_key"].(string)
	c.rcv = newReceiver(t, 0)
	if r := c.a.do("POST", "/v1/webhooks", c.key, strings.NewReader(`{"url":"`+c.rcv.srv.URL+`/hook","events":["job.completed","job.failed"]}`), "application/json"); r.status != 201 {
		t.Fatalf("register webhook: %d %s", r.status, r.body)
	}
	return c
}

// down stops one dependency; up starts it again.
func (c *outageCluster) down(t *testing.T, kind string) {
	switch kind {
	case "postgres":
		if err := c.pg.Stop(); err != nil {
			t.Fatal(err)
		}
	case "s3":
		c.s3.Stop()
	case "nats":
		c.nats.stop()
	}
}

func (c *outageCluster) up(t *testing.T, kind string) {
	switch kind {
	case "postgres":
		if err := c.pg.Restart(); err != nil {
			t.Fatal(err)
		}
	case "s3":
		if err := c.s3.Restart(); err != nil {
			t.Fatal(err)
		}
	case "nats":
		c.nats.restart()
	}
}

func runOutage(t *testing.T, kind string, outage time.Duration) {
	var extra []string
	if kind == "s3" {
		// Outputs expire during the outage, and stages that keep failing
		// give up during it: the give-up, its clean-up, job.failed and the
		// expiry's deletes all meet the bucket down.
		extra = []string{"--download-ttl", (outage / 2).String(), "--retry-for", (outage / 2).String()}
	}
	c := startOutageCluster(t, extra...)
	l := &clients{}
	for i := 0; i < 3; i++ { // done before the outage (in the S3 case their outputs expire during it)
		id, r := l.submit([]*server{c.a, c.b}[i%2], c.key, englishDocx)
		if id == "" {
			t.Fatalf("submit before the outage: %v", r)
		}
		c.b.waitJob(c.key, id, 3*time.Minute)
	}
	// Three jobs are in flight when it begins, however fast the machine:
	// the workers are frozen while they are accepted and thawed once the
	// dependency is down.
	freeze(t, c.w1, syscall.SIGSTOP)
	freeze(t, c.w2, syscall.SIGSTOP)
	var inFlight []string
	for i := 0; i < 3; i++ {
		id, r := l.submit([]*server{c.a, c.b}[i%2], c.key, englishDocx)
		if id == "" {
			t.Fatalf("submit before the outage: %v", r)
		}
		inFlight = append(inFlight, id)
	}
	began := time.Now()
	c.down(t, kind)
	freeze(t, c.w1, syscall.SIGCONT)
	freeze(t, c.w2, syscall.SIGCONT)
	t.Logf("%s down at %s", kind, began.Format("15:04:05"))
	stop := make(chan struct{})
	loaded := make(chan struct{})
	go func() { defer close(loaded); l.run(c.a, c.b, c.key, englishDocx, stop) }()
	time.Sleep(outage / 3)
	checkReadiness(t, c, kind)
	l.cancel(c.b, c.key, inFlight[2])
	time.Sleep(outage - time.Since(began))
	c.up(t, kind)
	ended := time.Now()
	t.Logf("%s up again after %s", kind, ended.Sub(began).Round(time.Second))
	time.Sleep(10 * time.Second)
	close(stop)
	<-loaded

	checkEveryJobEndsOnce(t, c, l, kind)
	checkBucket(t, c, l, kind)
	bad, summary := l.refusals(time.Time{}, time.Now(), 10*time.Second)
	t.Logf("answers: %s", summary)
	for _, b := range bad {
		t.Error(b)
	}
	if kind != "nats" && !strings.Contains(summary, "submit 503") {
		t.Errorf("no submission was refused while %s was down: %s", kind, summary)
	}
}

// checkReadiness: during a database or bucket outage no process is ready;
// during a NATS outage the api processes stay ready (they accept jobs and
// the workers publish them later) while the workers are not.
func checkReadiness(t *testing.T, c *outageCluster, kind string) {
	for _, s := range []*server{c.a, c.w1} {
		r := s.do("GET", "/v1/ready", "", nil, "")
		api := s == c.a
		want := http.StatusServiceUnavailable
		if kind == "nats" && api {
			want = http.StatusOK
		}
		if r.status != want {
			t.Errorf("%s down: /v1/ready on the %s process: %d %s", kind, map[bool]string{true: "api", false: "worker"}[api], r.status, r.body)
		}
		t.Logf("%s down: ready on %s: %d %s", kind, map[bool]string{true: "api", false: "worker"}[api], r.status, r.body)
	}
}

// checkEveryJobEndsOnce: every accepted job ends (completed; failed if
// cancelled, or in the S3 case if its stage gave up during the outage)
// and its webhook got exactly one delivery, of its terminal event.
func checkEveryJobEndsOnce(t *testing.T, c *outageCluster, l *clients, kind string) {
	ids := l.accepted()
	status := map[string]string{}
	deadline := time.Now().Add(5 * time.Minute)
	gaveUp := 0
	for _, id := range ids {
		j := c.a.waitJob(c.key, id, time.Until(deadline))
		status[id] = j["status"].(string)
		errText, _ := j["error"].(string)
		switch {
		case l.cancelled[id]:
			if status[id] != "failed" || errText != "cancelled" {
				t.Errorf("cancelled job %s: %v", id, j)
			}
		case status[id] == "failed" && kind == "s3" && strings.Contains(errText, "the document store is not answering"):
			gaveUp++
		case status[id] == "failed":
			t.Errorf("job %s failed: %q", id, errText)
		}
	}
	// The S3 deployment's --retry-for is half the outage: the jobs in
	// flight give up during it, and their job.failed and clean-up must
	// not wait for the bucket.
	if kind == "s3" && gaveUp == 0 {
		t.Error("no job gave up during the S3 outage")
	}
	c.rcv.wait(t, len(ids), 3*time.Minute)
	time.Sleep(5 * time.Second) // room for a duplicate
	c.rcv.mu.Lock()
	got := append([]delivery(nil), c.rcv.got...)
	c.rcv.mu.Unlock()
	events := map[string][]string{}
	for _, d := range got {
		data, _ := d.payload["data"].(map[string]any)
		jid, _ := data["job_id"].(string)
		events[jid] = append(events[jid], d.event)
	}
	failed := 0
	for _, id := range ids {
		want := "job." + status[id]
		if status[id] == "failed" {
			failed++
		}
		if !slices.Equal(events[id], []string{want}) {
			t.Errorf("job %s (%s): webhook deliveries %v, want one %s", id, status[id], events[id], want)
		}
	}
	t.Logf("%d jobs accepted, %d failed (cancelled or given up), %d webhook deliveries", len(ids), failed, len(got))
}

// checkBucket waits for the sweeps to leave only what should stay: the
// input, output and translated segments of a completed job within its
// download window, nothing of a failed or expired one, nothing of any
// refused upload.
func checkBucket(t *testing.T, c *outageCluster, l *clients, kind string) {
	want := map[string]string{}
	for _, id := range l.accepted() {
		if kind != "s3" && c.a.do("GET", "/v1/jobs/"+id, c.key, nil, "").json(t)["status"] == "completed" {
			want[id] = strings.Join([]string{"jobs/" + id + "/input", "jobs/" + id + "/output.docx", "jobs/" + id + "/translated.json"}, ",")
		}
	}
	// In the S3 case every download window (half the outage) ends, so the
	// bucket must end up empty.
	var have map[string]string
	for deadline := time.Now().Add(4 * time.Minute); ; {
		have = map[string]string{}
		for _, k := range c.objects(t, "jobs") {
			parts := strings.SplitN(k, "/", 3)
			have[parts[1]] = strings.Trim(have[parts[1]]+","+k, ",")
		}
		if fmt.Sprint(have) == fmt.Sprint(want) || time.Now().After(deadline) {
			break
		}
		time.Sleep(2 * time.Second)
	}
	for id, keys := range have {
		if want[id] != keys {
			t.Errorf("the bucket holds %s for job %s, want %q", keys, id, want[id])
		}
	}
	for id, keys := range want {
		if have[id] == "" {
			t.Errorf("the bucket lost %s", keys)
		}
	}
}
