package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// corpusFiles lists the Office Open XML documents of one corpus folder.
func corpusFiles(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(corpusDir, dir, "*.doc[xm]"))
	if err != nil || len(m) < 10 {
		t.Fatalf("corpus folder %s: %d documents (%v)", dir, len(m), err)
	}
	return m
}

// rtlSource is the language of each RTL corpus document (the corpus
// manifest's script and complex-script language).
var rtlSource = map[string]string{
	"aspose-OpenType_text_shaping.docx": "Hebrew",
	"docx4j-arabic_align.docx":          "Arabic",
	"docx4j-arabic_numbering.docx":      "Arabic",
	"docxtemplater-loop-hebrew.docx":    "Hebrew",
	"onlyoffice-ar-SA-new.docx":         "Arabic",
	"oxpt-HC002-Hebrew-01.docx":         "Hebrew",
	"oxpt-HC014-RTL-Table-01.docx":      "Hebrew",
	"oxpt-RP051-Arabic.docx":            "Arabic",
	"oxsdk-Comment028.docx":             "Arabic",
	"poi-stress004.docx":                "Persian",
	"poi-stress011.docx":                "Arabic",
}

// ltrSource is the language of the LTR corpus documents that have no
// English text at all (the others are English, or English mixed with
// another language).
var ltrSource = map[string]string{"tika-testWORD_phonetic.docx": "Japanese"}

// notEnglish are the LTR corpus documents whose text is not English, left
// out of the Apertium English→Spanish pass.
var notEnglish = map[string]bool{
	"aspose-Asian_typography.docx": true, // Chinese/Japanese
	"docx4j-Docx4j_Russian.docx":   true,
	"tika-testWORD_phonetic.docx":  true, // Japanese with ruby
}

var langCode = map[string]string{"English": "en", "French": "fr", "Spanish": "es", "Russian": "ru", "Japanese": "ja",
	"Arabic": "ar", "Hebrew": "he", "Persian": "fa"}

// scriptOf matches a letter of the language's script in output text.
var scriptOf = map[string]*regexp.Regexp{
	"English":  regexp.MustCompile(`\p{Latin}`),
	"Spanish":  regexp.MustCompile(`\p{Latin}`),
	"Russian":  regexp.MustCompile(`[\x{0400}-\x{04FF}]`),
	"Japanese": regexp.MustCompile(`[\x{3040}-\x{30FF}\x{4E00}-\x{9FFF}]`),
	"Arabic":   regexp.MustCompile(`[\x{0600}-\x{06FF}]`),
	"Hebrew":   regexp.MustCompile(`[\x{0590}-\x{05FF}]`),
}

func sourceScript(lang string) *regexp.Regexp {
	if lang == "Persian" {
		return scriptOf["Arabic"]
	}
	return scriptOf[lang]
}

// corpusJob is one document sent through the API and what came back.
type corpusJob struct {
	src, from, to string
	accepted      map[string]any // the 202 body
	status        map[string]any // the terminal job status
	out           []byte         // the downloaded .docx
	err           error
	srcText       string // the source's w:t and a:t text (set by checkJob)
}

// hasText: the source has a letter to translate.
func (j *corpusJob) hasText() bool { return anyLetter.MatchString(j.srcText) }

var anyLetter = regexp.MustCompile(`\pL`)

func (j *corpusJob) name() string { return filepath.Base(j.src) }

// label names the job in messages and its output file uniquely.
func (j *corpusJob) label() string {
	return strings.TrimSuffix(j.name(), filepath.Ext(j.name())) + "." + langCode[j.from] + "-" + langCode[j.to]
}

func (j *corpusJob) rtlTarget() bool {
	return j.to == "Arabic" || j.to == "Hebrew" || j.to == "Persian"
}
func (j *corpusJob) rtlSource() bool {
	return j.from == "Arabic" || j.from == "Hebrew" || j.from == "Persian"
}

// run uploads, polls (every second: the specification recommends 2 to 5 s
// for clients; tests may be keener) and downloads one job.
func (j *corpusJob) run(s *server, key string) error {
	data, err := os.ReadFile(j.src)
	if err != nil {
		return err
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("source_lang", j.from)
	mw.WriteField("target_lang", j.to)
	mw.WriteField("translation_mode", "full")
	fw, _ := mw.CreateFormFile("file", j.name())
	fw.Write(data)
	mw.Close()
	r, err := s.try("POST", "/v1/translate", key, &body, mw.FormDataContentType())
	if err != nil {
		return err
	}
	if r.status != http.StatusAccepted {
		return fmt.Errorf("translate: %d %s", r.status, r.body)
	}
	if err := json.Unmarshal(r.body, &j.accepted); err != nil {
		return err
	}
	id, _ := j.accepted["job_id"].(string)
	deadline := time.Now().Add(5 * time.Minute)
	for {
		r, err := s.try("GET", "/v1/jobs/"+id, key, nil, "")
		if err != nil {
			return err
		}
		if r.status != 200 {
			return fmt.Errorf("poll: %d %s", r.status, r.body)
		}
		j.status = nil
		if err := json.Unmarshal(r.body, &j.status); err != nil {
			return err
		}
		if st := j.status["status"]; st == "completed" || st == "failed" {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("still %v after 5 minutes", j.status["status"])
		}
		time.Sleep(time.Second)
	}
	if j.status["status"] != "completed" {
		return fmt.Errorf("job failed: %v", j.status["error"])
	}
	d, err := s.try("GET", "/v1/jobs/"+id+"/download", key, nil, "")
	if err != nil {
		return err
	}
	if d.status != 200 {
		return fmt.Errorf("download: %d %s", d.status, d.body)
	}
	j.out = d.body
	return nil
}

// runCorpusJobs runs the jobs, a few uploads at a time so the server's queue,
// not the client, decides the pace.
func runCorpusJobs(t *testing.T, s *server, key string, jobs []*corpusJob) {
	t.Helper()
	start := time.Now()
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for _, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			j.err = j.run(s, key)
		}()
	}
	wg.Wait()
	t.Logf("%d jobs through the API in %s", len(jobs), time.Since(start).Round(time.Millisecond))
	if keep := os.Getenv("DRAGOMAN_CORPUS_OUT"); keep != "" {
		var done []*corpusJob
		for _, j := range jobs {
			if j.err == nil {
				done = append(done, j)
			}
		}
		os.MkdirAll(keep, 0o755)
		writeOutputs(t, keep, done)
	}
}
