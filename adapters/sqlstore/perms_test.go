package sqlstore

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestSQLiteFilesAreOwnerOnly: the database and its -wal and -shm hold
// document text and key hashes, so no one but the owner may read them,
// whether the store creates them or finds them world-readable.
func TestSQLiteFilesAreOwnerOnly(t *testing.T) {
	old := syscall.Umask(0o022) // the usual umask, which SQLite's 0644 passes
	defer syscall.Umask(old)
	dir := t.TempDir()
	fresh := filepath.Join(dir, "fresh.db")
	existing := filepath.Join(dir, "existing.db")
	for _, p := range []string{existing, existing + "-wal", existing + "-shm"} {
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.Remove(existing + "-wal") // an empty WAL is not valid; SQLite recreates it
	os.Remove(existing + "-shm")
	if err := os.Chmod(existing, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{fresh, existing} {
		s, err := OpenSQLite(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.w.Exec(`CREATE TABLE IF NOT EXISTS perm_probe (x INTEGER); INSERT INTO perm_probe VALUES (1)`); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{path, path + "-wal", path + "-shm"} {
			fi, err := os.Stat(p)
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			if m := fi.Mode().Perm(); m != 0o600 {
				t.Errorf("%s: mode %o, want 600", filepath.Base(p), m)
			}
		}
		s.Close()
	}
}
