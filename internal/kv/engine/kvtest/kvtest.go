// Package kvtest is the conformance suite every kv engine passes: basic
// get/set/delete semantics, batches, concurrent use, unknown parameters,
// ordered scans for engines that have them,
// and for engines that keep data on disk, reopening and the fsync crash
// test. The suite runs over the registry, so a new engine is tested as soon
// as its line in engines.go exists.
package kvtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/dbmeter/dbmeter/internal/kv/engine"
)

// Run runs the whole suite against e, each part as a subtest.
func Run(t *testing.T, e engine.Engine) {
	t.Run("basic", func(t *testing.T) { testBasic(t, e) })
	t.Run("batch", func(t *testing.T) { testBatch(t, e) })
	t.Run("concurrent", func(t *testing.T) { testConcurrent(t, e) })
	t.Run("unknown-param", func(t *testing.T) { testUnknownParam(t, e) })
	t.Run("scan", func(t *testing.T) { testScan(t, e) })
	if !e.Persistent() {
		return
	}
	t.Run("reopen", func(t *testing.T) { testReopen(t, e) })
	t.Run("crash", func(t *testing.T) { testCrash(t, e) })
}

// open opens e in dir and closes it when the test ends, unless the test
// closes it first through the returned func.
func open(t *testing.T, e engine.Engine, dir string, durable bool) (engine.Store, func()) {
	t.Helper()
	s, err := e.Open(context.Background(), engine.Options{Dir: dir, Sync: durable})
	if err != nil {
		t.Fatalf("open %s in %s: %v", e.Name, dir, err)
	}
	var once sync.Once
	closeFn := func() {
		once.Do(func() {
			if err := s.Close(); err != nil {
				t.Errorf("close %s: %v", e.Name, err)
			}
		})
	}
	t.Cleanup(closeFn)
	return s, closeFn
}

func key(i int) []byte   { return fmt.Appendf(nil, "key%06d", i) }
func value(i int) []byte { return bytes.Repeat(fmt.Appendf(nil, "v%d.", i), 20) }

// wantValue fails the test unless key i holds value(i).
func wantValue(t *testing.T, s engine.Store, i int) {
	t.Helper()
	got, err := s.Get(key(i), nil)
	if err != nil {
		t.Fatalf("Get(%s): %v, want value %q", key(i), err, value(i))
	}
	if !bytes.Equal(got, value(i)) {
		t.Fatalf("Get(%s) = %q, want %q", key(i), got, value(i))
	}
}

func wantMissing(t *testing.T, s engine.Store, k []byte) {
	t.Helper()
	if got, err := s.Get(k, nil); !errors.Is(err, engine.ErrNotFound) {
		t.Fatalf("Get(%s) = %q, %v; want ErrNotFound", k, got, err)
	}
}

func testBasic(t *testing.T, e engine.Engine) {
	s, _ := open(t, e, t.TempDir(), false)
	wantMissing(t, s, key(1))
	if err := s.Set(key(1), value(1)); err != nil {
		t.Fatalf("Set: %v", err)
	}
	wantValue(t, s, 1)

	// Get appends to dst[:0]: whatever dst held before is gone.
	dst := append(make([]byte, 0, 1024), "stale"...)
	got, err := s.Get(key(1), dst)
	if err != nil || !bytes.Equal(got, value(1)) {
		t.Fatalf("Get into a used buffer = %q, %v; want %q", got, err, value(1))
	}

	// The store must not keep the caller's slices: dbmeter reuses them.
	k, v := key(2), value(2)
	if err := s.Set(k, v); err != nil {
		t.Fatalf("Set: %v", err)
	}
	k[0], v[0] = 'X', 'X'
	wantValue(t, s, 2)

	// Overwrite with a value of another size.
	if err := s.Set(key(1), []byte("short")); err != nil {
		t.Fatalf("overwrite: %v", err)
	}
	if got, err := s.Get(key(1), nil); err != nil || string(got) != "short" {
		t.Fatalf("Get after overwrite = %q, %v; want %q", got, err, "short")
	}

	if err := s.Delete(key(1)); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	wantMissing(t, s, key(1))
	if err := s.Delete(key(99)); err != nil {
		t.Fatalf("Delete of a missing key = %v, want nil", err)
	}
	wantValue(t, s, 2)
}

func testBatch(t *testing.T, e engine.Engine) {
	s, _ := open(t, e, t.TempDir(), false)
	var keys, vals [][]byte
	for i := range 250 {
		keys, vals = append(keys, key(i)), append(vals, value(i))
	}
	if err := engine.SetBatch(s, keys, vals); err != nil {
		t.Fatalf("SetBatch of %d keys: %v", len(keys), err)
	}
	for i := range 250 {
		wantValue(t, s, i)
	}
}

func testConcurrent(t *testing.T, e engine.Engine) {
	s, _ := open(t, e, t.TempDir(), false)
	const workers, each = 4, 200
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Go(func() {
			dst := make([]byte, 0, 256)
			for i := w * each; i < (w+1)*each; i++ {
				if err := s.Set(key(i), value(i)); err != nil {
					errs <- fmt.Errorf("Set(%s): %w", key(i), err)
					return
				}
				var err error
				if dst, err = s.Get(key(i), dst); err != nil || !bytes.Equal(dst, value(i)) {
					errs <- fmt.Errorf("Get(%s) = %q, %v after Set", key(i), dst, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func testUnknownParam(t *testing.T, e engine.Engine) {
	s, err := e.Open(context.Background(), engine.Options{Dir: t.TempDir(), Params: map[string]string{"no_such_knob": "1"}})
	if err == nil {
		s.Close()
		t.Fatalf("open %s with an unknown parameter succeeded, want an error", e.Name)
	}
}

func testReopen(t *testing.T, e engine.Engine) {
	dir := t.TempDir()
	s, closeFn := open(t, e, dir, false)
	for i := range 100 {
		if err := s.Set(key(i), value(i)); err != nil {
			t.Fatalf("Set: %v", err)
		}
	}
	for i := range 10 {
		if err := s.Delete(key(i)); err != nil {
			t.Fatalf("Delete: %v", err)
		}
	}
	closeFn()

	s, _ = open(t, e, dir, false)
	for i := range 10 {
		wantMissing(t, s, key(i))
	}
	for i := 10; i < 100; i++ {
		wantValue(t, s, i)
	}
}
