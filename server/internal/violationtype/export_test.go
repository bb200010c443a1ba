package violationtype

import (
	"archive/zip"
	"bytes"
	"time"
)

// Decompressed is how many bytes imports have inflated so far.
func Decompressed() int64 { return decompressed.Load() }

// MinimalParts lists the entries of the small archive ParseImport hands to
// excelize for data.
func MinimalParts(data []byte) ([]string, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	wb, err := checkArchive(zr)
	if err != nil {
		return nil, err
	}
	small, err := wb.minimal()
	if err != nil {
		return nil, err
	}
	out, err := zip.NewReader(bytes.NewReader(small), int64(len(small)))
	if err != nil {
		return nil, err
	}
	names := make([]string, len(out.File))
	for i, f := range out.File {
		names[i] = f.Name
	}
	return names, nil
}

// ImportSlots is how many imports may run at once.
func ImportSlots() int { return cap(importSlots) }

// HoldImportSlots takes every import slot until release is called, and
// makes a waiting import give up after wait.
func HoldImportSlots(wait time.Duration) (release func()) {
	before := importWait.Swap(int64(wait))
	for range cap(importSlots) {
		importSlots <- struct{}{}
	}
	return func() {
		for range cap(importSlots) {
			<-importSlots
		}
		importWait.Store(before)
	}
}

// SetImportWait sets how long an import waits for a slot until restore.
func SetImportWait(wait time.Duration) (restore func()) {
	before := importWait.Swap(int64(wait))
	return func() { importWait.Store(before) }
}
