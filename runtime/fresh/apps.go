package fresh

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"testing"
)

// CheckApp fails t when the HTML file of a tool's app (//tool:ui) at path,
// relative to the generated package's directory, no longer has the
// SHA-256 sum (hex) of the bytes toolgen embedded: the registry serves
// the app as it was when go generate last ran. A missing file fails too.
func CheckApp(t testing.TB, tool, path, sum string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("tool %s: cannot read its app %s: %v; run go generate", tool, path, err)
		return
	}
	got := sha256.Sum256(data)
	if hex.EncodeToString(got[:]) != sum {
		t.Errorf("tool %s: its app %s changed since toolgen embedded it; run go generate", tool, path)
	}
}
