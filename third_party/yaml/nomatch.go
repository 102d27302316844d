package yaml

// The two regular expressions of go.yaml.in/yaml/v3 as hand matchers, so that a program using
// this copy links neither regexp nor regexp/syntax (and the Unicode tables they reach).
// nomatch_test.go checks each against its regular expression.

// matchYAMLStyleFloat reports whether s matches ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$
func matchYAMLStyleFloat(s string) bool {
	i := skipSign(s, 0)
	if i < len(s) && s[i] == '.' {
		j := skipDigits(s, i+1)
		if j == i+1 {
			return false
		}
		i = j
	} else {
		j := skipDigits(s, i)
		if j == i {
			return false
		}
		i = j
		if i < len(s) && s[i] == '.' {
			i = skipDigits(s, i+1)
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i = skipSign(s, i+1)
		j := skipDigits(s, i)
		if j == i {
			return false
		}
		i = j
	}
	return i == len(s)
}

// matchBase60Float reports whether s matches ^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$
func matchBase60Float(s string) bool {
	i := skipSign(s, 0)
	if i >= len(s) || !isDigit(s[i]) {
		return false
	}
	i = skipDigitsOr(s, i+1, '_')
	groups := 0
	for i < len(s) && s[i] == ':' {
		i++
		if i >= len(s) || !isDigit(s[i]) {
			return false
		}
		if s[i] <= '5' && i+1 < len(s) && isDigit(s[i+1]) {
			i += 2
		} else {
			i++
		}
		groups++
	}
	if groups == 0 {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i = skipDigitsOr(s, i+1, '_')
	}
	return i == len(s)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// skipSign returns i past one '+' or '-' at s[i], if there is one.
func skipSign(s string, i int) int {
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		return i + 1
	}
	return i
}

// skipDigits returns the index of the first byte at or after i that is not a digit.
func skipDigits(s string, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

// skipDigitsOr is skipDigits that also skips each byte equal to also.
func skipDigitsOr(s string, i int, also byte) int {
	for i < len(s) && (isDigit(s[i]) || s[i] == also) {
		i++
	}
	return i
}
