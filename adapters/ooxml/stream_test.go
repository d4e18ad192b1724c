package ooxml

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// blockContainer is the rule a story part is streamed with: the root
// element, the body and the elements wrapping body content hold blocks.
func blockContainer(n *Node) bool {
	return n.Parent.Kind == RawNode || n.IsW("body") || n.IsW("sdt") || n.IsW("sdtContent") || n.IsW("footnote")
}

// mark is an edit a block callback and a tree walk make alike: every
// paragraph gets an attribute and every run a sibling, so a block that
// replaces its own children is written as it left them.
func mark(n *Node) {
	n.Walk(func(c *Node) bool {
		if c.IsW("p") {
			c.SetAttr("rsidR", "00C0FFEE")
		}
		return true
	})
	if n.IsW("p") {
		n.InsertAt(len(n.Children), NewW(n, "r"))
	}
}

// streamed writes data through StreamBlocks with edit applied to every
// block, and checks each block sees its ancestors up to the document.
func streamed(t *testing.T, data []byte, edit func(*Node)) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := StreamBlocks(bytes.NewReader(data), &out, blockContainer, func(b *Node) error {
		top := b
		for top.Parent != nil {
			top = top.Parent
		}
		if top.Kind != RawNode || top.RootElem() == nil {
			t.Fatalf("block %s is not attached to its document", b.Local)
		}
		if edit != nil {
			edit(b)
		}
		return nil
	})
	return out.String(), err
}

// treeWritten is the same through Parse and WriteTree: the edit applied to
// each block of the tree.
func treeWritten(t *testing.T, data []byte, edit func(*Node)) string {
	t.Helper()
	doc, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		var blocks []*Node
		var visit func(c *Node)
		visit = func(c *Node) {
			for _, k := range c.Children {
				if k.Kind != ElemNode {
					continue
				}
				if len(k.Children) > 0 && blockContainer(k) {
					visit(k)
				} else {
					blocks = append(blocks, k)
				}
			}
		}
		visit(doc)
		for _, b := range blocks {
			edit(b)
		}
	}
	var out bytes.Buffer
	if err := WriteTree(&out, doc); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// Streaming a part block by block writes what the tree writes, untouched
// and edited, on hand-made parts (prolog, comments, whitespace between
// blocks, empty containers, nested content controls) and on every story
// part of the corpus.
func TestStreamBlocksWritesWhatTheTreeWrites(t *testing.T) {
	parts := map[string][]byte{
		"part":   []byte(part),
		"shapes": []byte(`<?xml version="1.0"?>` + "\n" + `<w:document xmlns:w="` + NSW + `"><w:body/></w:document>`),
		"sdt":    []byte(`<w:document xmlns:w="` + NSW + `">` + "\r\n " + `<w:body> <w:sdt><w:sdtPr><w:alias w:val="x"/></w:sdtPr><w:sdtContent><w:p><w:r><w:t>a</w:t></w:r></w:p><!-- c --><w:p/><w:tbl><w:tr><w:tc><w:p/></w:tc></w:tr></w:tbl></w:sdtContent></w:sdt><w:sdt><w:sdtContent></w:sdtContent></w:sdt><?pi x?><w:sectPr/></w:body></w:document>`),
		"notes":  []byte(`<w:footnotes xmlns:w="` + NSW + `"><w:footnote w:id="0"><w:p><w:r><w:t>n</w:t></w:r></w:p></w:footnote><w:footnote w:id="1"/></w:footnotes>`),
	}
	for _, dir := range []string{"docx", "rtl"} {
		files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "corpus", dir, "*.docx"))
		for _, f := range files {
			zr, err := zip.OpenReader(f)
			if err != nil {
				continue
			}
			for _, e := range zr.File {
				if !strings.HasPrefix(e.Name, "word/") || !strings.HasSuffix(e.Name, ".xml") || !strings.ContainsAny(e.Name, "dhf") {
					continue
				}
				rc, err := e.Open()
				if err != nil {
					t.Fatal(err)
				}
				data, err := io.ReadAll(rc)
				rc.Close()
				if err == nil {
					if _, err := Parse(data); err == nil {
						parts[filepath.Base(f)+"/"+e.Name] = data
					}
				}
			}
			zr.Close()
		}
	}
	if len(parts) < 20 {
		t.Fatalf("only %d parts to compare: the corpus is missing", len(parts))
	}
	for name, data := range parts {
		for _, edit := range []func(*Node){nil, mark} {
			want := treeWritten(t, data, edit)
			got, err := streamed(t, data, edit)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if got != want {
				t.Errorf("%s (edited %v): streamed %d bytes differ from the tree's %d", name, edit != nil, len(got), len(want))
			}
		}
	}
}

// A malformed or truncated part fails streamed as it fails parsed.
func TestStreamBlocksRefusesWhatParseRefuses(t *testing.T) {
	for _, bad := range []string{
		`<w:document xmlns:w="` + NSW + `"><w:body><w:p></w:body></w:document>`,
		`<w:document xmlns:w="` + NSW + `"><w:body><w:p/>`,
		`<!DOCTYPE x><w:document/>`,
		``,
		`<?xml version="1.0"?>`,
		`<w:document xmlns:w="` + NSW + `"><w:body><w:p>` + strings.Repeat("<w:r>", 100000) + strings.Repeat("</w:r>", 100000) + `</w:p></w:body></w:document>`,
	} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Fatalf("Parse accepts %.80q", bad)
		}
		if _, err := streamed(t, []byte(bad), nil); err == nil {
			t.Errorf("StreamBlocks accepts %.80q", bad)
		}
	}
}

// FuzzStreamBlocks: on any input, streaming refuses what Parse refuses and
// otherwise writes what the tree writes, untouched and edited.
func FuzzStreamBlocks(f *testing.F) {
	f.Add([]byte(part))
	f.Add([]byte(`<w:document xmlns:w="` + NSW + `"><w:body> <w:sdt><w:sdtContent><w:p/><!--c--></w:sdtContent></w:sdt><w:sectPr/></w:body></w:document>`))
	f.Add([]byte(`<w:footnotes xmlns:w="` + NSW + `"><w:footnote/></w:footnotes>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, perr := Parse(data)
		for _, edit := range []func(*Node){nil, mark} {
			got, err := streamed(t, data, edit)
			if (err == nil) != (perr == nil) {
				t.Fatalf("Parse error %v, StreamBlocks error %v", perr, err)
			}
			if err == nil && got != treeWritten(t, data, edit) {
				t.Fatalf("streamed output differs from the tree's")
			}
		}
	})
}

// Streaming holds the largest block, not the part, whatever its names: a
// part of 300,000 paragraphs each naming an element and an attribute no
// other does (12 MB) is streamed in a few megabytes, not kept as a table
// of every name met.
func TestStreamBlocksDoesNotKeepEveryName(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(`<w:document xmlns:w="` + NSW + `"><w:body>`)
	for i := range 300000 {
		fmt.Fprintf(&b, `<w:p><w:x%07d w:a%07d="1"/></w:p>`, i, i)
	}
	b.WriteString(`</w:body></w:document>`)
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base, peak, blocks := ms.HeapAlloc, uint64(0), 0
	err := StreamBlocks(&b, nil, blockContainer, func(*Node) error {
		if blocks++; blocks%50000 == 0 {
			runtime.GC()
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc-min(base, ms.HeapAlloc))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if peak > 4<<20 {
		t.Errorf("%d KB held while streaming 300,000 blocks of distinct names", peak>>10)
	}
}

// One block too large to hold is refused, not read into memory; blocks
// up to the bound, however many, pass.
func TestStreamBlocksRefusesAGiantBlock(t *testing.T) {
	defer func(n int) { MaxBlockNodes = n }(MaxBlockNodes)
	MaxBlockNodes = 1000
	const w = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"`
	body := func(para string, n int) []byte {
		return []byte(`<w:document ` + w + `><w:body>` + strings.Repeat(para, n) + `</w:body></w:document>`)
	}
	container := func(n *Node) bool { return n.Parent.Kind == RawNode || n.IsW("body") }
	small := `<w:p>` + strings.Repeat(`<w:r><w:t>word</w:t></w:r>`, 100) + `</w:p>`
	if err := StreamBlocks(bytes.NewReader(body(small, 50)), io.Discard, container, func(*Node) error { return nil }); err != nil {
		t.Fatalf("50 paragraphs of 301 nodes each: %v", err)
	}
	giant := `<w:p>` + strings.Repeat(`<w:r><w:t>word</w:t></w:r>`, 400) + `</w:p>`
	err := StreamBlocks(bytes.NewReader(body(giant, 1)), io.Discard, container, func(*Node) error { return nil })
	if !errors.Is(err, ErrBlockTooLarge) {
		t.Fatalf("a paragraph of 1,201 nodes with the bound at 1,000: %v", err)
	}
	if _, err := Parse(body(giant, 1)); err != nil {
		t.Errorf("Parse (a whole tree by design) refused it: %v", err)
	}
}
