package bridge

import "github.com/unified-cognitive-substrate/ucs/internal/field"

// Temporary names for the next commit's mechanical rename to remove.
type (
	Field       = field.Field
	OutputField = field.Output
	Type        = field.Type
)

const (
	TypeString  = field.String
	TypeInt     = field.Int
	TypeNumber  = field.Number
	TypeBool    = field.Bool
	TypeObject  = field.Object
	TypeStrings = field.Strings
	TypeObjects = field.Objects
	TypeList    = field.List

	contextCap       = field.ContextCap
	textCap          = field.TextCap
	noteCap          = field.NoteCap
	phraseCap        = field.PhraseCap
	taskCap          = field.TaskCap
	defaultStringCap = field.StringCap
	defaultObjectCap = field.ObjectCap
	MaxInput         = field.MaxInput
)

var (
	CheckUTF8  = field.CheckUTF8
	ParseInput = field.ParseInput
	EncodeArgv = field.EncodeArgv
	DecodeArgv = field.DecodeArgv
)
