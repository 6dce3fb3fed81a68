package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"emergo/record"
)

// checkWritable fails at once if the file name cannot be written the way
// writeFileAtomic writes it, so that a long command fails before its work,
// not after: the directory must exist and take a new file, and name must
// not be a directory.
func checkWritable(name string) error {
	if fi, err := os.Stat(name); err == nil && fi.IsDir() {
		return fmt.Errorf("%s is a directory", name)
	}
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", name, pathReason(err))
	}
	f.Close()
	return os.Remove(f.Name())
}

// writeFileAtomic replaces the file name with data: it writes a new file
// beside it and renames it over the old one, so that a reader, or a run
// stopped half way, sees either the old content or the new, never a part.
// A file that exists keeps its permissions.
func writeFileAtomic(name string, data []byte) error {
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(name); err == nil {
		mode = fi.Mode().Perm()
	}
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", name, pathReason(err))
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(mode)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("writing %s: %w", name, pathReason(err))
	}
	return nil
}

// pathReason is the reason of a file error without the path, which the
// caller names itself.
func pathReason(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// readRecordFile reads every game of a record file, whatever its format:
// the content decides (record.ReadAll), not the name. A file without a
// game is an error.
func readRecordFile(name string) ([]record.Record, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	recs, err := record.ReadAll(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("%s: no game in the file", name)
	}
	return recs, nil
}

// plural is n and the word, in the plural unless n is 1: "1 move",
// "2 moves". Words with another plural give it after a slash: "man/men".
func plural(n int, word string) string {
	one, many, ok := strings.Cut(word, "/")
	if !ok {
		many = one + "s"
	}
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
