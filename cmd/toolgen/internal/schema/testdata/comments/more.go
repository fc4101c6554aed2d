package comments

// Second is declared in a second file. See [Store.Notes] and
// [time.Duration] for details.
type Second struct {
	/* Block is a block comment. */
	Block string
}
