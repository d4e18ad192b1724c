package pool

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A warm instance converts one document after another, so the kernel's
// per-process limits cannot bound one conversion alone: RLIMIT_CPU counts
// the instance's whole life. Each conversion is therefore watched: its
// processor time is soffice.bin's at the end less at the start, read from
// /proc every tick, and an instance that goes over the conversion's
// budget is killed and replaced. RLIMIT_CPU's soft limit is moved to the
// budget's end at each start too, so the kernel stops soffice (SIGXCPU)
// even if this watch cannot. Memory is capped by the kernel (memlimit);
// the watch records the peak, so a conversion that died at the cap fails
// as the document's need, not as a crash.

// watchTick is how often a conversion's use is read.
const watchTick = 200 * time.Millisecond

// clockTicks is USER_HZ, the unit of /proc/<pid>/stat's times: 100 on
// every Linux architecture Go supports.
const clockTicks = 100

// watch is one conversion's processor time and memory.
type watch struct {
	pid    int
	start  time.Duration // soffice.bin's processor time when the conversion began
	budget time.Duration
	kill   func() // stops the instance when over budget

	mu   sync.Mutex
	used time.Duration
	peak int64 // bytes of data segment, the most seen
	over bool  // killed for going over budget

	stop, done chan struct{}
}

// watchConversion starts watching pid (soffice.bin) for a conversion of
// the given budget; kill ends the instance when it goes over.
func watchConversion(pid int, budget time.Duration, kill func()) *watch {
	w := &watch{pid: pid, budget: budget, kill: kill, stop: make(chan struct{}), done: make(chan struct{})}
	w.start, _ = cpuTime(pid)
	limitCPU(pid, w.start+budget+2*time.Second)
	go w.run()
	return w
}

func (w *watch) run() {
	defer close(w.done)
	t := time.NewTicker(watchTick)
	defer t.Stop()
	for {
		over := w.sample()
		if over {
			w.kill()
			return
		}
		select {
		case <-w.stop:
			w.sample()
			return
		case <-t.C:
		}
	}
}

// sample reads the process's use and reports whether it is over budget.
func (w *watch) sample() bool {
	cpu, err := cpuTime(w.pid)
	data := dataBytes(w.pid)
	w.mu.Lock()
	defer w.mu.Unlock()
	if err == nil {
		w.used = max(w.used, cpu-w.start)
	}
	w.peak = max(w.peak, data)
	if w.budget > 0 && w.used > w.budget && !w.over {
		w.over = true
	}
	return w.over
}

// end stops the watch and says what the conversion used: its processor
// time, its peak data segment, and whether it was stopped for going over.
func (w *watch) end() (used time.Duration, peak int64, over bool) {
	close(w.stop)
	<-w.done
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.used, w.peak, w.over
}

// overCPU is the error of a conversion stopped at its budget.
func overCPU(budget time.Duration) error {
	return &Error{Reason: TooMuchWork, Detail: fmt.Sprintf(
		"it needed more than %s of processor time; split it, or simplify its largest tables", budget.Round(time.Second))}
}

// overMemory is the error of a conversion that reached the memory cap.
func overMemory(cap int64) error {
	return &Error{Reason: TooMuchMemory, Detail: fmt.Sprintf(
		"it needed more than %s; split it into smaller documents, or make its pictures smaller", mib(cap))}
}

// nearCap says whether a data segment of peak bytes reached the cap: an
// allocation past it fails, so the process never shows the cap itself.
func nearCap(peak, cap int64) bool {
	return cap > 0 && peak >= cap-min(cap/10, 64<<20)
}

func mib(n int64) string {
	if n >= 1<<30 && n%(1<<30) == 0 {
		return fmt.Sprintf("%d GiB of memory", n>>30)
	}
	return fmt.Sprintf("%d MiB of memory", n>>20)
}

// cpuTime is a process's processor time, user and system, its waited-for
// children's included, from /proc/<pid>/stat.
func cpuTime(pid int) (time.Duration, error) {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	// The fields after the command name, which may hold spaces: the
	// state is field 3, utime 14, stime 15, cutime 16, cstime 17.
	f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	if len(f) < 15 {
		return 0, fmt.Errorf("short /proc/%d/stat", pid)
	}
	var ticks int64
	for _, s := range f[11:15] {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, err
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / clockTicks, nil
}

// dataBytes is a process's data segment (VmData: what RLIMIT_DATA
// counts), 0 if it cannot be read.
func dataBytes(pid int) int64 {
	status, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmData:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}
