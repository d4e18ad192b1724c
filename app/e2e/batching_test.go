package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// distinctDocx writes english.docx with n paragraphs of distinct sentences.
func distinctDocx(t *testing.T, n int) string {
	t.Helper()
	things := strings.Fields("house car river letter city garden window book")
	var body strings.Builder
	for i := range n {
		fmt.Fprintf(&body, `<w:p><w:r><w:t>The teacher sees the %s number %d in the morning.</w:t></w:r></w:p>`, things[i%len(things)], i+1)
	}
	return docxFrom(t, "distinct.docx", withBody(body.String()), nil)
}

func jobMetrics(t *testing.T, j map[string]any) (segments, calls, hits int) {
	t.Helper()
	m, ok := j["metrics"].(map[string]any)
	if !ok {
		t.Fatalf("job without metrics: %v", j)
	}
	return int(m["segments"].(float64)), int(m["engine_calls"].(float64)), int(m["cache_hits"].(float64))
}

// TestBatchSettingsAndMemoryOverShutdown: --batch-segments (and
// DRAGOMAN_ENGINE_CONCURRENCY, from the environment) reach the translator
// of a real server with the real Apertium plugin, and the translation
// memory entries written behind the job survive a graceful shutdown: after
// a restart the same document makes no engine call.
func TestBatchSettingsAndMemoryOverShutdown(t *testing.T) {
	s := startServer(t, []string{"--batch-segments", "5"}, "DRAGOMAN_ENGINE_CONCURRENCY=1", "DRAGOMAN_APERTIUM_PROCESSES=1")
	_, key, _ := s.account("pro")
	doc := distinctDocx(t, 12)
	translate := func() map[string]any {
		r := s.uploadFile(key, doc, map[string]string{"target_lang": "Spanish", "source_lang": "English", "mode": "full"})
		if r.status != 202 {
			t.Fatalf("%d %s", r.status, r.body)
		}
		j := s.waitJob(key, r.json(t)["job_id"].(string), 3*time.Minute)
		if j["status"] != "completed" {
			t.Fatalf("job: %v", j)
		}
		return j
	}
	segs, calls, hits := jobMetrics(t, translate())
	if segs != 12 || calls != 3 || hits != 0 { // 5 + 5 + 2
		t.Fatalf("first job: %d segments in %d calls, %d hits; want 12 in 3 calls of at most 5", segs, calls, hits)
	}
	s.stop() // SIGTERM: the stages stop, then the queued memory writes finish
	s.start()
	segs, calls, hits = jobMetrics(t, translate())
	if segs != 12 || calls != 0 || hits != 12 {
		t.Fatalf("after a graceful restart: %d segments, %d calls, %d hits; want every segment from memory", segs, calls, hits)
	}
}
