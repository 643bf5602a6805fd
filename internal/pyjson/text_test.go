package pyjson

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestQuote(t *testing.T) {
	assert.Equal(t, `"a\"b\n"`, Quote("a\"b\n"))
	assert.Equal(t, `"é"`, Quote("é"))
}
