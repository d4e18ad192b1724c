package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkTable is `make bench`: it runs the whole service (upload →
// job_completed, through the public API and the job's events) on generated
// documents and prints one table with each row of issues 13 and 23 beside
// its peer figure (the unzip + XML scan floor, Apertium on plain text, a
// cold soffice). It measures only through the public surface (HTTP API,
// the job events on the embedded NATS, the process tree in /proc), so it
// keeps working however a job is run inside. Times run from the upload to
// the job_completed event as a subscriber receives it (a polling client
// adds its polling interval); CPU times, summed over the server and its
// plugins, do not depend on what else loads the machine.
//
// Rows (DRAGOMAN_BENCH_ROWS, a comma list; default all): identity (the
// pseudo engine on a unique-text document of DRAGOMAN_BENCH_UNIQUE_WORDS,
// default 60,000, and on a 547k-word one, DRAGOMAN_BENCH_RUNS runs each,
// default 3, a new document every run), apertium (DRAGOMAN_BENCH_APERTIUM_WORDS,
// default 60,000 unique words), small (DRAGOMAN_BENCH_SMALL_JOBS, default 12,
// back to back, and the time to the first progress event), rss (peak
// memory without the soft limit: 50 MB text-heavy to Spanish, the 547k-word
// document, a 127 MB document.xml to Arabic; DRAGOMAN_BENCH_RSS picks),
// office (LibreOffice only when needed).
func BenchmarkTable(b *testing.B) {
	rows := envList("DRAGOMAN_BENCH_ROWS", "identity,apertium,small,rss,office")
	runs := envInt("DRAGOMAN_BENCH_RUNS", 3)
	dir := b.TempDir()
	var table []benchRow
	sc := &smallCount{}
	big := filepath.Join(dir, "547k.docx")
	if rows["rss"] {
		if err := genWordsDocx(big, 547_000, 10); err != nil {
			b.Fatal(err)
		}
	}
	for range b.N {
		table = table[:0]
		if rows["identity"] {
			table = append(table,
				benchIdentity(b, dir, "unique-text document", envInt("DRAGOMAN_BENCH_UNIQUE_WORDS", 60_000), runs, 100, sc),
				benchIdentity(b, dir, "547k-word document", 547_000, runs, 200, sc))
		}
		if rows["apertium"] {
			table = append(table, benchApertium(b, dir, envInt("DRAGOMAN_BENCH_APERTIUM_WORDS", 60_000), sc))
		}
		if rows["small"] {
			table = append(table, benchSmall(b, dir, envInt("DRAGOMAN_BENCH_SMALL_JOBS", 12), sc)...)
		}
		if rows["rss"] {
			table = append(table, benchRSS(b, dir, big, sc)...)
		}
		if rows["office"] {
			table = append(table, benchOffice(b, dir, sc)...)
		}
		table = append(table, benchRow{"jobs idle > 5 s (`job_laid_out` → `job_completed`, or `job_completed` → the polling client seeing it), every job of this bench",
			fmt.Sprintf("%d of %d jobs (worst client lag %.2f s)", sc.stalled, sc.jobs, sc.worstLag.Seconds()), "goal 0"})
	}
	printTable(table)
}

type benchRow struct{ what, ours, peer string }

func printTable(rows []benchRow) {
	var sb strings.Builder
	sb.WriteString("\n| measure | dragoman | peer / goal |\n|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&sb, "| %s | %s | %s |\n", r.what, r.ours, r.peer)
	}
	fmt.Fprint(os.Stdout, sb.String())
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

func envList(name, def string) map[string]bool {
	v := os.Getenv(name)
	if v == "" {
		v = def
	}
	m := map[string]bool{}
	for _, s := range strings.Split(v, ",") {
		m[strings.TrimSpace(s)] = true
	}
	return m
}
