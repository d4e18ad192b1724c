package docformat

import (
	"encoding/binary"
	"io"
	"unicode/utf16"
)

// Compound File Binary (OLE2) special sector numbers.
const (
	oleEndOfChain = 0xFFFFFFFE
	oleFreeSect   = 0xFFFFFFFF
	oleMaxSect    = 0xFFFFFFFA
)

// verifyOLE2 reads the compound file's directory: encrypted OOXML lives in
// an OLE2 file with an "EncryptedPackage" stream; a Word binary has a
// "WordDocument" stream whose header (FIB) flags encryption.
func verifyOLE2(r io.ReaderAt, size int64) (Format, error) {
	cf, err := openCompound(r, size)
	if err != nil {
		return "", err
	}
	entries, err := cf.directory()
	if err != nil {
		return "", err
	}
	byName := make(map[string]oleEntry, len(entries))
	for _, e := range entries {
		byName[e.name] = e
	}
	if _, ok := byName["EncryptedPackage"]; ok {
		return "", ErrEncrypted
	}
	wd, ok := byName["WordDocument"]
	if !ok {
		switch {
		case has(byName, "Workbook"), has(byName, "Book"):
			return "", unsupported("an Excel workbook; only Word documents are accepted")
		case has(byName, "PowerPoint Document"):
			return "", unsupported("a PowerPoint presentation; only Word documents are accepted")
		}
		return "", unsupported("an OLE2 compound file without a Word document stream")
	}
	encrypted, err := cf.wordEncrypted(wd)
	if err != nil {
		return "", err
	}
	if encrypted {
		return "", ErrEncrypted
	}
	return DOC, nil
}

func has(m map[string]oleEntry, k string) bool { _, ok := m[k]; return ok }

type compound struct {
	r          io.ReaderAt
	size       int64
	sectorSize int64
	fat        []uint32
	dirStart   uint32
	miniCutoff uint64
}

type oleEntry struct {
	name  string
	kind  byte // 1 storage, 2 stream, 5 root
	start uint32
	size  uint64
}

func openCompound(r io.ReaderAt, size int64) (*compound, error) {
	var h [512]byte
	if size < 512 {
		return nil, corrupt("OLE2 file shorter than its header")
	}
	if _, err := r.ReadAt(h[:], 0); err != nil {
		return nil, corrupt("reading OLE2 header: %v", err)
	}
	le := binary.LittleEndian
	if le.Uint16(h[0x1C:]) != 0xFFFE {
		return nil, corrupt("OLE2 header has a wrong byte-order mark")
	}
	shift := le.Uint16(h[0x1E:])
	if shift != 9 && shift != 12 {
		return nil, corrupt("OLE2 header has an invalid sector size")
	}
	cf := &compound{r: r, size: size, sectorSize: 1 << shift,
		dirStart: le.Uint32(h[0x30:]), miniCutoff: uint64(le.Uint32(h[0x38:]))}
	sectors := uint32((size + cf.sectorSize - 1) / cf.sectorSize)
	numFAT := le.Uint32(h[0x2C:])
	if numFAT == 0 || numFAT > sectors {
		return nil, corrupt("OLE2 header declares %d allocation-table sectors", numFAT)
	}
	// The sector numbers of the FAT: 109 in the header, the rest in a
	// DIFAT chain whose sectors each end with the next DIFAT sector.
	var fatSects []uint32
	for i := 0; i < 109 && uint32(len(fatSects)) < numFAT; i++ {
		fatSects = append(fatSects, le.Uint32(h[0x4C+4*i:]))
	}
	next := le.Uint32(h[0x44:])
	perSect := int(cf.sectorSize/4) - 1
	for hops := uint32(0); uint32(len(fatSects)) < numFAT; hops++ {
		if next > oleMaxSect || hops > sectors {
			return nil, corrupt("OLE2 allocation-table list is broken")
		}
		buf, err := cf.sector(next)
		if err != nil {
			return nil, err
		}
		for i := 0; i < perSect && uint32(len(fatSects)) < numFAT; i++ {
			fatSects = append(fatSects, le.Uint32(buf[4*i:]))
		}
		next = le.Uint32(buf[4*perSect:])
	}
	for _, s := range fatSects {
		buf, err := cf.sector(s)
		if err != nil {
			return nil, err // already says which sector is unreadable
		}
		for i := 0; i < len(buf); i += 4 {
			cf.fat = append(cf.fat, le.Uint32(buf[i:]))
		}
	}
	return cf, nil
}

// sector reads one sector; sector n starts after the header. A short last
// sector (some writers truncate it) reads as zero-padded.
func (cf *compound) sector(n uint32) ([]byte, error) {
	off := (int64(n) + 1) * cf.sectorSize
	if n > oleMaxSect || off >= cf.size {
		return nil, corrupt("OLE2 sector %d lies outside the file", n)
	}
	buf := make([]byte, cf.sectorSize)
	if _, err := cf.r.ReadAt(buf, off); err != nil && err != io.EOF {
		return nil, corrupt("reading OLE2 sector %d: %v", n, err)
	}
	return buf, nil
}

// directory walks the directory chain and returns every entry.
func (cf *compound) directory() ([]oleEntry, error) {
	le := binary.LittleEndian
	var entries []oleEntry
	s := cf.dirStart
	for hops := 0; s != oleEndOfChain; hops++ {
		if s > oleMaxSect || int(s) >= len(cf.fat) || hops > len(cf.fat) {
			return nil, corrupt("OLE2 directory chain is broken")
		}
		buf, err := cf.sector(s)
		if err != nil {
			return nil, err
		}
		for off := 0; off+128 <= len(buf); off += 128 {
			e := buf[off : off+128]
			kind := e[0x42]
			if kind == 0 {
				continue
			}
			nameLen := int(le.Uint16(e[0x40:]))
			if nameLen < 2 || nameLen > 64 {
				continue
			}
			u := make([]uint16, nameLen/2-1)
			for i := range u {
				u[i] = le.Uint16(e[2*i:])
			}
			entries = append(entries, oleEntry{name: string(utf16.Decode(u)), kind: kind,
				start: le.Uint32(e[0x74:]), size: le.Uint64(e[0x78:]) & 0xFFFFFFFF})
		}
		s = cf.fat[s]
	}
	if len(entries) == 0 {
		return nil, corrupt("OLE2 directory is empty")
	}
	return entries, nil
}

// wordEncrypted reads the start of the WordDocument stream's FIB: wIdent
// 0xA5EC (Word 97+) or 0xA5DC (Word 6/95), fEncrypted = bit 8 of the flags
// at offset 0x0A. Streams below the mini-stream cutoff live in the mini
// stream; Word's never do in practice, so those are not inspected.
func (cf *compound) wordEncrypted(e oleEntry) (bool, error) {
	if e.kind != 2 || e.size < 12 {
		return false, corrupt("WordDocument stream is too short")
	}
	if e.size < cf.miniCutoff {
		return false, nil
	}
	buf, err := cf.sector(e.start)
	if err != nil {
		return false, err
	}
	le := binary.LittleEndian
	switch le.Uint16(buf) {
	case 0xA5EC, 0xA5DC:
	default:
		return false, corrupt("WordDocument stream has no Word header")
	}
	return le.Uint16(buf[0x0A:])&0x0100 != 0, nil
}
