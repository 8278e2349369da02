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
	tmp, err := Temp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp", data)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	SyncDir(filepath.Dir(path))
	return nil
}

// Temp writes data to a new temporary file in dir (named by pattern, as
// os.CreateTemp takes it), synced to disk, and returns its path, for a
// caller that renames several into place. On error nothing is left.
func Temp(dir, pattern string, data []byte) (string, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return "", err
	}
	name := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(name)
		return "", err
	}
	return name, nil
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
