// Package atomicfile writes a file so that a reader sees the old content or
// the new, never a part: the one atomic write of the companion's inbox,
// drafts and tokens.
package atomicfile

import (
	"os"
	"path/filepath"
)

// Write writes data to a temporary file beside path (mode 0600, as
// os.CreateTemp makes it), syncs it and renames it into place.
func Write(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	SyncDir(filepath.Dir(path))
	return nil
}

// SyncDir makes a rename or a new file in dir durable. Failure is not
// reported: some file systems cannot sync a directory, and the data itself
// is already synced.
func SyncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
