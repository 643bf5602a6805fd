package workspace

import (
	"io"
	"os"
)

// openRead opens one of the workspace's regular files for reading (see
// openFile: never through a link).
func openRead(name string) (*os.File, error) { return openFile(name, os.O_RDONLY, 0) }

// openDir opens one of the workspace's directories, to sync it: never
// through a link.
func openDir(name string) (*os.File, error) { return openFile(name, os.O_RDONLY|oDirectory, 0) }

// ReadFile is os.ReadFile without the network poller, for a file the user
// names (a manifest, the agent's working state): it follows links. The
// workspace's own files are read by Workspace.ReadFile, which does not.
func ReadFile(name string) ([]byte, error) {
	f, err := openFollow(name, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f)
}

// readFile is os.ReadFile of one of the workspace's own files, through
// openFile: a link or a non-regular file is an error of kind corrupt.
func readFile(name string) ([]byte, error) {
	f, err := openRead(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f)
}

func readAll(f *os.File) ([]byte, error) {
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
