package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// sofficeProcs lists the soffice processes whose ancestry includes pid.
func sofficeProcs(pid int) (n int, rssMB float64) {
	procs, _ := filepath.Glob("/proc/[0-9]*/stat")
	parent := map[int]int{}
	var office []int
	rss := map[int]int64{}
	for _, p := range procs {
		raw, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		i := bytes.IndexByte(raw, '(')
		j := bytes.LastIndexByte(raw, ')')
		if i < 0 || j < i {
			continue
		}
		me, _ := strconv.Atoi(strings.TrimSpace(string(raw[:i])))
		f := strings.Fields(string(raw[j+2:]))
		if len(f) < 22 {
			continue
		}
		parent[me], _ = strconv.Atoi(f[1])
		pages, _ := strconv.ParseInt(f[21], 10, 64)
		rss[me] = pages * int64(os.Getpagesize())
		if strings.HasPrefix(string(raw[i+1:j]), "soffice") {
			office = append(office, me)
		}
	}
	for _, o := range office {
		for p, hops := parent[o], 0; p > 1 && hops < 20; p, hops = parent[p], hops+1 {
			if p == pid {
				n++
				rssMB += float64(rss[o]) / (1 << 20)
				break
			}
		}
	}
	return n, rssMB
}

func benchOffice(b *testing.B, dir string, sc *smallCount) []benchRow {
	odt := filepath.Join("..", "..", "testdata", "corpus", "odt", "odftoolkit-Text1.odt")
	st, err := os.Stat(odt)
	if err != nil {
		b.Fatal(err)
	}
	s, w, key := benchServer(b, "DRAGOMAN_ENGINES=pseudo")
	defer s.stop()
	defer w.close()
	time.Sleep(3 * time.Second) // whatever starts with the server has started
	atStart, rssStart := sofficeProcs(s.cmd.Process.Pid)
	small := filepath.Join(dir, "office-small.docx")
	if err := genWordsDocxSeed(small, 500, 10, 3); err != nil {
		b.Fatal(err)
	}
	for range 3 {
		sc.lag(runJob(b, s, w, key, small, pseudoFields))
	}
	afterDocx, _ := sofficeProcs(s.cmd.Process.Pid)
	rows := []benchRow{{
		"soffice processes of the server after start and after 3 .docx jobs",
		fmt.Sprintf("%d at start (%.0f MB RSS), %d after the .docx jobs", atStart, rssStart, afterDocx),
		"goal: none until the first conversion",
	}}
	var conv []float64
	for range 2 {
		j := runJob(b, s, w, key, odt, pseudoFields)
		if j.job["status"] != "completed" {
			b.Fatalf(".odt job: %v", j.job)
		}
		sc.lag(j)
		conv = append(conv, j.times.step("job_started", "job_converted").Seconds())
	}
	// The peer: a cold soffice with a fresh profile.
	profile := filepath.Join(dir, "lo-profile")
	t0 := time.Now()
	cmd := exec.Command("soffice", "--headless", "--norestore", "-env:UserInstallation=file://"+profile,
		"--convert-to", "docx", "--outdir", filepath.Join(dir, "lo-out"), odt)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("soffice --convert-to: %v %s", err, out)
	}
	cold := time.Since(t0)
	rows = append(rows, benchRow{
		fmt.Sprintf("%.1f MB .odt (odftoolkit-Text1) conversion, job_started → job_converted", float64(st.Size())/(1<<20)),
		fmt.Sprintf("first %.2f s (cold for the server), second %.2f s (warm)", conv[0], conv[1]),
		fmt.Sprintf("cold `soffice --convert-to docx`, fresh profile: %.2f s", cold.Seconds()),
	})
	return rows
}
