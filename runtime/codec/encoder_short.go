package codec

// appendSmall appends v, below 100, in decimal.
func appendSmall(dst []byte, v uint64) []byte {
	if v < 10 {
		return append(dst, byte('0'+v))
	}
	return append(dst, byte('0'+v/10), byte('0'+v%10))
}
