package workspace

import (
	"io"
	"os"
)

// openRead opens a file or directory for reading (see openFile).
func openRead(name string) (*os.File, error) { return openFile(name, os.O_RDONLY, 0) }

// ReadFile is os.ReadFile through openFile: without the network poller.
func ReadFile(name string) ([]byte, error) { return readFile(name) }

// readFile is os.ReadFile through openFile.
func readFile(name string) ([]byte, error) {
	f, err := openRead(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := 512
	if st, err := f.Stat(); err == nil && st.Size() > 0 && int64(int(st.Size())) == st.Size() {
		size = int(st.Size()) + 1 // one more, to see EOF without growing
	}
	data := make([]byte, 0, size)
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
}
