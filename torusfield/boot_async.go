package torusfield

// BootAsync runs Boot on another goroutine and returns the function that
// waits for its result. The warm-up (for the embedded manifest, decoding
// its stored result) is pure computation: it runs on another core while
// the caller makes the directories, takes the lock and checks what is
// there.
func BootAsync(m *Manifest, n int) (wait func() (e *Engine, stored []byte)) {
	type booted struct {
		e      *Engine
		stored []byte
	}
	done := make(chan booted, 1)
	go func() {
		e, stored := Boot(m, n)
		done <- booted{e, stored}
	}()
	return func() (*Engine, []byte) {
		bt := <-done
		return bt.e, bt.stored
	}
}
