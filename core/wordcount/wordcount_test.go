package wordcount

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestGolden(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "..", "testdata", "wordcount", "golden.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	cases := 0
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if strings.HasPrefix(text, "#") {
			continue
		}
		num, body, ok := strings.Cut(text, "\t")
		if !ok {
			t.Fatalf("line %d: no tab", line)
		}
		want, err := strconv.Atoi(num)
		if err != nil {
			t.Fatalf("line %d: %v", line, err)
		}
		body = strings.NewReplacer(`\t`, "\t", `\n`, "\n").Replace(body)
		if got := Count(body); got != want {
			t.Errorf("line %d: Count(%q) = %d, want %d", line, body, got, want)
		}
		cases++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if cases < 20 {
		t.Fatalf("only %d golden cases read", cases)
	}
}

// Counting must not depend on where a text is split into calls, except at
// the split itself: the sum over paragraphs equals the count of the whole
// when paragraphs end at spaces.
func TestAdditiveOverParagraphs(t *testing.T) {
	paras := []string{"The quick brown fox.", "中文翻译", "ประเทศไทยมีประชากรประมาณหกสิบล้านคน", "مرحبا بك"}
	sum := 0
	for _, p := range paras {
		sum += Count(p)
	}
	if whole := Count(strings.Join(paras, "\n")); whole != sum {
		t.Fatalf("whole %d != sum of paragraphs %d", whole, sum)
	}
}

func TestInvalidUTF8DoesNotPanic(t *testing.T) {
	if got := Count("abc \xff\xfe def"); got < 2 {
		t.Fatalf("Count = %d, want at least the two valid words", got)
	}
}

var benchText = strings.Repeat("The quick brown fox jumps over the lazy dog. "+
	"مرحبا بك في عالم الترجمة. 我爱北京天安门。 ประเทศไทยมีประชากร. Съешь же ещё этих мягких. ", 2000)

func BenchmarkCountMixed(b *testing.B) {
	b.SetBytes(int64(len(benchText)))
	for b.Loop() {
		Count(benchText)
	}
}

var benchEnglish = strings.Repeat("The quick brown fox jumps over the lazy dog, again and again. ", 4000)

func BenchmarkCountEnglish(b *testing.B) {
	b.SetBytes(int64(len(benchEnglish)))
	for b.Loop() {
		Count(benchEnglish)
	}
}
