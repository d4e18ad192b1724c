package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// sample is one line of a Prometheus text exposition.
type sample struct {
	name   string
	labels map[string]string
	value  float64
}

// scrape reads the server's /metrics over plain HTTP.
func (s *server) scrape() []sample {
	s.t.Helper()
	resp, err := http.Get("http://" + s.metrics + "/metrics")
	if err != nil {
		s.t.Fatalf("scrape: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
		s.t.Fatalf("scrape: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var out []sample
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		sp := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[sp+1:], 64)
		if err != nil {
			s.t.Fatalf("metric line %q: %v", line, err)
		}
		smp := sample{name: line[:sp], labels: map[string]string{}, value: v}
		if i := strings.IndexByte(smp.name, '{'); i >= 0 {
			for _, kv := range strings.Split(strings.TrimSuffix(smp.name[i+1:], "}"), ",") {
				k, val, _ := strings.Cut(kv, "=")
				smp.labels[k] = strings.Trim(val, `"`)
			}
			smp.name = smp.name[:i]
		}
		out = append(out, smp)
	}
	return out
}

// sum adds the samples of name whose labels include want.
func sum(samples []sample, name string, want map[string]string) (total float64, found bool) {
	for _, s := range samples {
		if s.name != name {
			continue
		}
		ok := true
		for k, v := range want {
			if s.labels[k] != v {
				ok = false
			}
		}
		if ok {
			total += s.value
			found = true
		}
	}
	return total, found
}

// killPlugin SIGKILLs the server's child process running the named binary.
func (s *server) killPlugin(binary string) {
	s.t.Helper()
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		stat, err := os.ReadFile(filepath.Join(d, "stat"))
		if err != nil {
			continue
		}
		f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(f) < 2 || f[1] != strconv.Itoa(s.cmd.Process.Pid) {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join(d, "cmdline"))
		if strings.Contains(string(cmdline), binary) {
			pid, _ := strconv.Atoi(filepath.Base(d))
			if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
				s.t.Fatal(err)
			}
			return
		}
	}
	s.t.Fatalf("no %s child of the server", binary)
}

const tinyRTF = `{\rtf1\ansi\deff0{\fonttbl{\f0 Times New Roman;}}\f0\fs24 The cat sat on the mat. The dog slept in the sun.\par}`

// TestMetricsTracesAndAccessLog runs jobs of every kind through the real
// binary (pseudo engine, LibreOffice for an .rtf, a webhook, a plugin
// killed, a quota and a rate limit hit), then checks that a scrape of
// /metrics has every family the operators were promised with plausible
// values, that one job's trace holds the request, every stage, the plugin
// call and the webhook delivery, and that the access log says who did
// what without a key in sight.
func TestMetricsTracesAndAccessLog(t *testing.T) {
	traces := filepath.Join(t.TempDir(), "traces.json")
	rcv := newReceiver(t, 1) // the first delivery is refused: a retry
	s := startServer(t, []string{"--allow-private-urls", "--log-format", "json"},
		"DRAGOMAN_ENGINES=pseudo", "OTEL_TRACES_EXPORTER=console", "DRAGOMAN_TRACES_FILE="+traces, "DRAGOMAN_LIBREOFFICE_POOL_SIZE=1")
	acct, key, _ := s.account("enterprise")
	if r := s.do("POST", "/api/webhooks", key, strings.NewReader(`{"url":"`+rcv.srv.URL+`/hook","events":["job.completed","job.failed"]}`), "application/json"); r.status != 201 {
		t.Fatalf("register webhook: %d %s", r.status, r.body)
	}

	// X-Request-ID: a client's is echoed, a missing one is made up.
	req, _ := http.NewRequest("GET", s.url("/v1/health"), nil)
	req.Header.Set("X-Request-ID", "probe-42")
	resp, err := s.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := resp.Header.Get("X-Request-ID"); got != "probe-42" {
		t.Errorf("X-Request-ID echoed as %q", got)
	}
	if got := s.do("GET", "/v1/health", "", nil, "").header.Get("X-Request-ID"); len(got) < 16 {
		t.Errorf("generated X-Request-ID %q", got)
	}

	submit := func(path string, fields map[string]string) string {
		t.Helper()
		r := s.uploadFile(key, path, fields)
		if r.status != 202 {
			t.Fatalf("submit: %d %s", r.status, r.body)
		}
		return r.json(t)["job_id"].(string)
	}
	de := map[string]string{"target_lang": "German", "source_lang": "English"}
	first := submit(englishDocx, de)
	if j := s.waitJob(key, first, time.Minute); j["status"] != "completed" {
		t.Fatalf("first job: %v", j)
	}
	again := submit(englishDocx, de) // every segment from the translation memory
	s.waitJob(key, again, time.Minute)

	rtf := filepath.Join(t.TempDir(), "cat.rtf")
	if err := os.WriteFile(rtf, []byte(tinyRTF), 0o600); err != nil {
		t.Fatal(err)
	}
	rtfJob := submit(rtf, map[string]string{"target_lang": "French", "source_lang": "English"})
	if j := s.waitJob(key, rtfJob, 3*time.Minute); j["status"] != "completed" {
		t.Fatalf("rtf job: %v", j)
	}

	s.killPlugin("dragoman-provider-pseudo")
	time.Sleep(200 * time.Millisecond)
	if j := s.waitJob(key, submit(englishDocx, map[string]string{"target_lang": "Spanish", "source_lang": "English"}), time.Minute); j["status"] != "completed" {
		t.Fatalf("job after the plugin was killed: %v", j)
	}

	// The quota: a job that does not fit fails, then submissions are refused.
	used := s.do("GET", "/v1/usage", key, nil, "").json(t)["used_words"].(float64)
	s.admin("account", "set-plan", "--account", acct, "--plan", "enterprise", "--limit-words", strconv.Itoa(int(used)+5))
	failed := submit(englishDocx, map[string]string{"target_lang": "Italian", "source_lang": "English"})
	if j := s.waitJob(key, failed, time.Minute); j["status"] != "failed" {
		t.Fatalf("over-quota job: %v", j)
	}
	s.admin("account", "set-plan", "--account", acct, "--plan", "enterprise", "--limit-words", strconv.Itoa(int(used)))
	if r := s.uploadFile(key, englishDocx, de); r.status != 402 {
		t.Fatalf("submission over quota: %d %s", r.status, r.body)
	}
	// The rate limit.
	s.admin("account", "set-plan", "--account", acct, "--plan", "enterprise", "--requests-per-minute", "2")
	limited := false
	for i := 0; i < 5 && !limited; i++ {
		limited = s.do("GET", "/v1/usage", key, nil, "").status == 429
	}
	if !limited {
		t.Fatal("the rate limit never refused a request")
	}
	// Deliveries: 4 completed + 1 failed, plus the refused first attempt.
	rcv.wait(t, 6, time.Minute)
	time.Sleep(500 * time.Millisecond) // the last attempt's result is recorded after the response

	m := s.scrape()
	t.Run("metrics", func(t *testing.T) {
		atLeast := func(name string, labels map[string]string, min float64) {
			t.Helper()
			v, ok := sum(m, name, labels)
			if !ok {
				t.Errorf("no %s%v in the scrape", name, labels)
			} else if v < min {
				t.Errorf("%s%v = %v, want at least %v", name, labels, v, min)
			}
		}
		httpDur := "dragoman_http_server_request_duration_seconds"
		atLeast(httpDur+"_count", map[string]string{"http_route": "/v1/translate", "http_request_method": "POST", "http_response_status_code": "202", "url_scheme": "https"}, 5)
		atLeast(httpDur+"_count", map[string]string{"http_route": "/v1/jobs/{job_id}", "http_request_method": "GET", "http_response_status_code": "200"}, 5)
		atLeast(httpDur+"_bucket", map[string]string{"http_route": "/v1/translate", "le": "+Inf"}, 6)
		atLeast("dragoman_http_server_request_body_size_bytes_sum", map[string]string{"http_route": "/v1/translate"}, 1000)
		atLeast("dragoman_build_info", map[string]string{"goversion": runtime.Version()}, 1)
		atLeast("dragoman_job_duration_seconds_count", map[string]string{"outcome": "completed"}, 4)
		atLeast("dragoman_job_duration_seconds_count", map[string]string{"outcome": "failed"}, 1)
		promtoolCheck(t, s)
		atLeast("dragoman_jobs_accepted_total", map[string]string{"format": "docx"}, 4)
		atLeast("dragoman_jobs_accepted_total", map[string]string{"format": "rtf"}, 1)
		atLeast("dragoman_jobs_completed_total", map[string]string{"format": "docx", "engine": "pseudo"}, 3)
		atLeast("dragoman_jobs_completed_total", map[string]string{"format": "rtf", "engine": "pseudo"}, 1)
		atLeast("dragoman_jobs_failed_total", map[string]string{"format": "docx", "reason": "quota"}, 1)
		for _, st := range []string{"convert", "extract", "translate", "assemble", "layout", "finish", "notify_completed", "notify_failed"} {
			atLeast("dragoman_stage_duration_seconds_count", map[string]string{"stage": st}, 1)
		}
		atLeast("dragoman_stage_duration_seconds_sum", map[string]string{"stage": "convert"}, 0.001) // LibreOffice took time
		for _, st := range []string{"convert", "extract", "translate", "assemble", "layout", "finish"} {
			atLeast("dragoman_queue_depth", map[string]string{"stage": st}, 0)
			atLeast("dragoman_queue_oldest_age_seconds", map[string]string{"stage": st}, 0)
		}
		atLeast("dragoman_engine_calls_total", map[string]string{"engine": "pseudo"}, 3)
		atLeast("dragoman_engine_characters_sent_total", map[string]string{"engine": "pseudo"}, 100)
		atLeast("dragoman_engine_errors_total", map[string]string{"engine": "pseudo"}, 0)
		atLeast("dragoman_engine_retries_total", map[string]string{"engine": "pseudo"}, 0)
		atLeast("dragoman_translation_memory_hits_total", nil, 1)
		atLeast("dragoman_translation_memory_misses_total", nil, 1)
		atLeast("dragoman_words_charged_total", nil, used)
		atLeast("dragoman_refusals_total", map[string]string{"kind": "quota", "at": "extract"}, 1)
		atLeast("dragoman_refusals_total", map[string]string{"kind": "quota", "at": "submit"}, 1)
		atLeast("dragoman_refusals_total", map[string]string{"kind": "rate_limit"}, 1)
		atLeast("dragoman_webhook_attempts_total", map[string]string{"outcome": "succeeded"}, 5)
		atLeast("dragoman_webhook_attempts_total", map[string]string{"outcome": "retrying"}, 1)
		atLeast("dragoman_webhook_delivery_duration_seconds_count", map[string]string{"outcome": "succeeded"}, 5)
		atLeast("dragoman_plugin_starts_total", map[string]string{"plugin": "pseudo", "kind": "provider"}, 2)
		atLeast("dragoman_plugin_crashes_total", map[string]string{"plugin": "pseudo"}, 1)
		atLeast("dragoman_plugin_restarts_total", map[string]string{"plugin": "pseudo"}, 1)
		atLeast("dragoman_plugin_starts_total", map[string]string{"plugin": "libreoffice", "kind": "converter"}, 1)
		atLeast("dragoman_libreoffice_pool_size", nil, 1)
		atLeast("dragoman_libreoffice_busy_instances", nil, 0)
		atLeast("dragoman_conversion_duration_seconds_count", map[string]string{"format": "rtf", "outcome": "ok"}, 1)
		atLeast("go_goroutines", nil, 10)
		atLeast("go_memstats_alloc_bytes", nil, 1)
		atLeast("process_resident_memory_bytes", nil, 1<<20)
		atLeast("process_cpu_seconds_total", nil, 0)
		if v, _ := sum(m, "dragoman_words_charged_total", nil); v != used {
			t.Errorf("words charged %v, usage says %v (the failed job charges nothing)", v, used)
		}
		if v, _ := sum(m, "dragoman_libreoffice_pool_size", nil); v != 1 {
			t.Errorf("pool size %v, DRAGOMAN_LIBREOFFICE_POOL_SIZE=1", v)
		}
	})

	var trace string // of the first job
	t.Run("trace", func(t *testing.T) {
		spans := readSpans(t, traces)
		for _, sp := range spans {
			if sp.Name == "stage convert" && sp.attr("dragoman.job_id") == first {
				trace = sp.SpanContext.TraceID
			}
		}
		if trace == "" {
			t.Fatalf("no convert span for job %s among %d spans", first, len(spans))
		}
		want := map[string]bool{"POST /v1/translate": false, "dragoman.plugin.v1.Provider/Translate": false, "webhook delivery": false}
		for _, st := range []string{"convert", "extract", "translate", "assemble", "layout", "finish", "notify_completed"} {
			want["stage "+st] = false
		}
		for _, sp := range spans {
			if sp.SpanContext.TraceID != trace {
				continue
			}
			if _, ok := want[sp.Name]; ok {
				want[sp.Name] = true
			}
			if id := sp.attr("dragoman.job_id"); id != "" && id != first {
				t.Errorf("span %q of job %s in the trace of job %s", sp.Name, id, first)
			}
		}
		for name, seen := range want {
			if !seen {
				t.Errorf("the trace of job %s has no %q span", first, name)
			}
		}
		checkServerSpan(t, traces, trace)
		// The conversion's plugin call sits under the rtf job's convert stage.
		convert := map[string]string{}
		for _, sp := range spans {
			if sp.Name == "stage convert" && sp.attr("dragoman.job_id") == rtfJob {
				convert[sp.SpanContext.TraceID] = sp.SpanContext.SpanID
			}
		}
		found := false
		for _, sp := range spans {
			if sp.Name == "dragoman.plugin.v1.Converter/Convert" && convert[sp.SpanContext.TraceID] == sp.Parent.SpanID {
				found = true
			}
		}
		if !found {
			t.Errorf("no Converter/Convert span under the convert stage of the rtf job %s", rtfJob)
		}
	})

	s.stop() // the log is complete once the process is gone
	t.Run("access log", func(t *testing.T) {
		logs := s.logs.String()
		if strings.Contains(logs, key) {
			t.Error("an API key is in the log")
		}
		var sawProbe, sawSubmit bool
		for _, line := range strings.Split(logs, "\n") {
			if line == "" {
				continue
			}
			var l map[string]any
			if err := json.Unmarshal([]byte(line), &l); err != nil { // every line, start-up ones too
				t.Fatalf("a log line is not JSON: %q", line)
			}
			if l["msg"] != "request" {
				continue
			}
			for _, k := range []string{"method", "route", "status", "bytes", "duration", "account_id", "request_id"} {
				if _, ok := l[k]; !ok {
					t.Errorf("access log line lacks %s: %s", k, line)
				}
			}
			if d, _ := l["duration"].(float64); d <= 0 || d > 300 { // seconds, not nanoseconds
				t.Errorf("access log duration %v is not seconds: %s", l["duration"], line)
			}
			if l["request_id"] == "probe-42" && l["route"] == "/v1/health" && l["status"] == 200.0 {
				sawProbe = true
			}
			if l["route"] == "/v1/translate" && l["status"] == 202.0 && l["job_id"] == first {
				sawSubmit = true
				if l["account_id"] != acct || l["bytes"].(float64) <= 0 || l["trace_id"] != trace {
					t.Errorf("submission line: %s", line)
				}
			}
		}
		if !sawProbe || !sawSubmit {
			t.Errorf("access log: probe line %v, submission line with job_id %v", sawProbe, sawSubmit)
		}
	})
}

// span is what the console exporter writes of a span.
type span struct {
	Name        string
	SpanContext struct{ TraceID, SpanID string }
	Parent      struct{ TraceID, SpanID string }
	Attributes  []struct {
		Key   string
		Value struct{ Value any }
	}
}

func (s span) attr(key string) string {
	for _, a := range s.Attributes {
		if a.Key == key {
			v, _ := a.Value.Value.(string)
			return v
		}
	}
	return ""
}

func readSpans(t *testing.T, path string) []span {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []span
	dec := json.NewDecoder(bytes.NewReader(b))
	for dec.More() {
		var sp span
		if err := dec.Decode(&sp); err != nil {
			t.Fatalf("trace file: %v", err)
		}
		out = append(out, sp)
	}
	return out
}

// TestReadinessFollowsDependencies checks GET /v1/ready: ready with every
// dependency up, 503 naming the document store when its folder is gone,
// ready again when it is back; /v1/health stays 200 throughout.
func TestReadinessFollowsDependencies(t *testing.T) {
	s := startServer(t, nil, "DRAGOMAN_ENGINES=pseudo")
	ready := func(want int) map[string]any {
		t.Helper()
		r := s.do("GET", "/v1/ready", "", nil, "")
		if r.status != want {
			t.Fatalf("ready: %d %s, want %d", r.status, r.body, want)
		}
		return r.json(t)
	}
	body := ready(200)
	checks, _ := body["checks"].(map[string]any)
	for _, c := range []string{"database", "bus", "blobs", "plugins"} {
		if checks[c] != "ok" {
			t.Errorf("check %s: %v", c, checks[c])
		}
	}
	docs := filepath.Join(s.dataDir, "documents")
	moved := docs + ".away"
	if err := os.Rename(docs, moved); err != nil {
		t.Fatal(err)
	}
	body = ready(503)
	checks, _ = body["checks"].(map[string]any)
	if body["ready"] != false || checks["blobs"] == "ok" || checks["database"] != "ok" {
		t.Errorf("with the document folder gone: %v", body)
	}
	if r := s.do("GET", "/v1/health", "", nil, ""); r.status != 200 {
		t.Errorf("liveness failed with readiness: %d", r.status)
	}
	if err := os.Rename(moved, docs); err != nil {
		t.Fatal(err)
	}
	ready(200)

	s.killPlugin("dragoman-provider-pseudo")
	time.Sleep(100 * time.Millisecond)
	body = ready(503)
	if checks, _ := body["checks"].(map[string]any); checks["plugins"] == "ok" {
		t.Errorf("with the engine plugin killed: %v", body)
	}
}
