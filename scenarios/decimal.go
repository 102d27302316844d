package scenarios

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ParseDecimal reads an integer as the format writes every one (in a YAML position, in a row
// string, in a lesson, in a flag): an optional sign and decimal digits, with no leading zero.
// Other notations are refused with the reason, since readers disagree on them (YAML 1.1 reads
// 010 as octal 8, YAML 1.2 as 10): 0x10, 0o10, 0b10, 1_0, 010 and 08. The error's text names
// the integer (clipped) and says what to write.
func ParseDecimal(s string) (int64, error) {
	digits := strings.TrimLeft(s, "+-")
	if len(s)-len(digits) > 1 {
		return 0, fmt.Errorf("%s is not an integer", clip(s))
	}
	why := ""
	switch {
	case len(digits) > 1 && digits[0] == '0' && strings.ContainsAny(digits[1:2], "xX"):
		why = "hexadecimal is not allowed"
	case len(digits) > 1 && digits[0] == '0' && strings.ContainsAny(digits[1:2], "oO"):
		why = "octal is not allowed"
	case len(digits) > 1 && digits[0] == '0' && strings.ContainsAny(digits[1:2], "bB"):
		why = "binary is not allowed"
	case strings.Contains(digits, "_"):
		why = "digit separators (_) are not allowed"
	case len(digits) > 1 && digits[0] == '0':
		why = "a leading zero is not allowed (YAML 1.1 reads 010 as octal 8)"
	}
	if why != "" {
		hint := ""
		if v, err := strconv.ParseInt(strings.ReplaceAll(s, "_", ""), 0, 64); err == nil {
			hint = fmt.Sprintf("; write %d", v)
			if d, err := strconv.ParseInt(strings.ReplaceAll(s, "_", ""), 10, 64); err == nil && d != v {
				hint += fmt.Sprintf(" or %d", d)
			}
		} else if d, err := strconv.ParseInt(s, 10, 64); err == nil {
			hint = fmt.Sprintf("; write %d", d)
		}
		return 0, fmt.Errorf("integer %s: integers are decimal; %s%s", clip(s), why, hint)
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && ne.Err == strconv.ErrRange {
			return 0, fmt.Errorf("integer %s overflows bigint (-9223372036854775808..9223372036854775807)", clip(s))
		}
		return 0, fmt.Errorf("%s is not an integer", clip(s))
	}
	return v, nil
}
