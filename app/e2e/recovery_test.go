package e2e

import (
	"bufio"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"
)

// calls reads the pseudo engine's call log: the segments of every call
// answered, in order.
func calls(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var c struct{ Segments []string }
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			break // a line cut by the kill
		}
		out = append(out, c.Segments)
	}
	return out
}

// remembered is the set of hashes in the translation memory of the data
// dir's database, merged or still in its journal.
func remembered(t *testing.T, dataDir string) map[string]bool {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dataDir, "dragoman.db")+"?_pragma=query_only(1)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.QueryContext(context.Background(), "SELECT hash FROM translation_memory UNION SELECT hash FROM tm_journal")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var h []byte
		if err := rows.Scan(&h); err != nil {
			t.Fatal(err)
		}
		out[string(h)] = true
	}
	return out
}

// memoryKey is the translation memory's key of a text an engine was sent,
// as the store holds it.
func memoryKey(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// TestWorkerKilledMidTranslationResumesFromTheMemory kills the server
// (SIGKILL, its engine plugin with it) while a job is being translated by
// a slow engine that logs every call it answers. After the restart the job
// is run again from its stored upload: no segment whose answer was in the
// translation memory at the kill is sent to the engine again (at most the
// batches in flight are), the job reaches exactly one terminal state,
// completed, with every segment translated, and its webhook is delivered
// exactly once.
func TestWorkerKilledMidTranslationResumesFromTheMemory(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "calls.jsonl")
	doc := filepath.Join(dir, "unique.docx")
	if err := genWordsDocxSeed(doc, 4000, 10, 11); err != nil { // ~300 distinct sentences
		t.Fatal(err)
	}
	const batch, inFlight = 10, 2
	rcv := newReceiver(t, 0)
	s := startServer(t, []string{"--allow-private-urls"}, "DRAGOMAN_ENGINES=pseudo",
		"DRAGOMAN_PSEUDO_DELAY=250ms", "DRAGOMAN_PSEUDO_CALL_LOG="+log,
		"DRAGOMAN_BATCH_SEGMENTS=10", "DRAGOMAN_ENGINE_CONCURRENCY=2")
	_, key, _ := s.account("enterprise")
	if r := s.do("POST", "/api/webhooks", key, strings.NewReader(`{"url":"`+rcv.srv.URL+`/hook","events":["job.completed","job.failed"]}`), "application/json"); r.status != 201 {
		t.Fatalf("register: %d %s", r.status, r.body)
	}
	r := s.uploadFile(key, doc, map[string]string{"target_lang": "Spanish", "source_lang": "English", "translation_mode": "full"})
	if r.status != 202 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	id := r.json(t)["job_id"].(string)

	// Kill once the engine has answered a few batches, mid-translation.
	deadline := time.Now().Add(3 * time.Minute)
	for len(calls(t, log)) < 6 {
		if time.Now().After(deadline) {
			t.Fatalf("the engine answered %d calls in 3 minutes", len(calls(t, log)))
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.kill()
	before := calls(t, log)
	memory := remembered(t, s.dataDir)
	if j := s.stateOf(id); j == "completed" || j == "failed" {
		t.Fatalf("the job was %s before the kill: nothing was interrupted", j)
	}
	answered := map[string]bool{}
	inMemory := 0
	for _, c := range before {
		for _, seg := range c {
			answered[seg] = true
			if memory[memoryKey(seg)] {
				inMemory++
			}
		}
	}
	// What the engine answered is in the memory, but the batches still
	// being written when the process died.
	if inMemory < len(answered)-batch*inFlight {
		t.Fatalf("%d of %d answered segments in the memory at the kill", inMemory, len(answered))
	}

	s.start()
	j := s.waitJob(key, id, 5*time.Minute)
	if j["status"] != "completed" || j["error"] != nil {
		t.Fatalf("after the restart: %v", j)
	}
	after := calls(t, log)[len(before):]
	again := 0
	for _, c := range after {
		for _, seg := range c {
			if memory[memoryKey(seg)] {
				t.Errorf("sent again after the restart though its answer was in the memory: %q", seg)
			}
			if answered[seg] {
				again++
			}
		}
	}
	if again > batch*inFlight {
		t.Errorf("%d segments sent again, more than the %d of the batches in flight", again, batch*inFlight)
	}
	if len(after) == 0 {
		t.Error("nothing was left to translate after the restart: the kill came too late to test anything")
	}
	t.Logf("%d calls before the kill (%d segments, %d in the memory), %d after, %d segments sent twice", len(before), len(answered), inMemory, len(after), again)

	// One terminal state, one webhook, and the output is translated.
	time.Sleep(3 * time.Second) // a second delivery would come now
	got := rcv.wait(t, 1, time.Minute)
	if len(got) != 1 || got[0].event != "job.completed" {
		t.Errorf("webhook deliveries: %d (%v)", len(got), events(got))
	}
	if j2 := s.getPatiently("/v1/jobs/"+id, key).json(t); j2["status"] != "completed" || j2["completed_at"] != j["completed_at"] {
		t.Errorf("the job changed after it completed: %v", j2)
	}
	d := s.getPatiently("/v1/jobs/"+id+"/download", key)
	if d.status != 200 {
		t.Fatalf("download: %d", d.status)
	}
	src, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	_, source := docxRuns(t, src, "")
	_, text := docxRuns(t, d.body, "")
	for _, sentence := range strings.SplitAfter(source, ". ")[:20] {
		if len(sentence) > 20 && strings.Contains(text, sentence) {
			t.Errorf("left untranslated: %q", sentence)
		}
	}
}

func events(ds []delivery) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.event)
	}
	return out
}

// stateOf is the job's status as the database holds it (the server may be
// down).
func (s *server) stateOf(id string) string {
	db, err := sql.Open("sqlite", "file:"+filepath.Join(s.dataDir, "dragoman.db")+"?_pragma=query_only(1)")
	if err != nil {
		s.t.Fatal(err)
	}
	defer db.Close()
	var st string
	if err := db.QueryRow("SELECT status FROM jobs WHERE id = ?", id).Scan(&st); err != nil {
		s.t.Fatal(err)
	}
	return st
}
