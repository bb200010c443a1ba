package journal

// scanBatch is decodeFast without reflection, for the bodies journals
// send: an object whose "attendances" or "entries" is an array of flat
// objects. It hands every value to the same UnmarshalJSON methods
// encoding/json would call, with the same bytes, so what it returns is
// what json.Unmarshal returns; anything outside the shape it knows (an
// escape in a string, a key in another case, a nested value, a list
// named twice, bad JSON) answers ok false and json.Unmarshal decides.
// encoding/json's reflection was most of a school day push's Go time.
func scanBatch(body []byte) (lb PushBody, ok bool) {
	s := scanner{b: body}
	if !s.byte('{') {
		return lb, false
	}
	if s.byte('}') {
		return lb, s.end()
	}
	for {
		key, ok := s.key()
		if !ok {
			return lb, false
		}
		switch key {
		case "token":
			raw, ok := s.scalar()
			if !ok {
				return lb, false
			}
			_ = lb.Token.UnmarshalJSON(raw)
		case "attendances", "entries":
			list := &lb.Attendances
			if key == "entries" {
				list = &lb.Entries
			}
			if *list != nil {
				return lb, false
			}
			items, ok := s.entries()
			if !ok {
				return lb, false
			}
			*list = &items
		default:
			if foldable(key) {
				return lb, false
			}
			if _, ok := s.scalar(); !ok {
				return lb, false
			}
		}
		if s.byte('}') {
			return lb, s.end()
		}
		if !s.byte(',') {
			return lb, false
		}
	}
}

// scanner walks a body; every method skips the whitespace before what it
// reads.
type scanner struct {
	b []byte
	i int
}

func (s *scanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// byte consumes c when it comes next.
func (s *scanner) byte(c byte) bool {
	s.space()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// end is true when nothing but whitespace is left.
func (s *scanner) end() bool {
	s.space()
	return s.i == len(s.b)
}

// key reads `"name":`.
func (s *scanner) key() (string, bool) {
	s.space()
	raw, ok := s.str()
	if !ok || !s.byte(':') {
		return "", false
	}
	return string(raw[1 : len(raw)-1]), true
}

// str reads a string without escapes or control characters, quotes
// included.
func (s *scanner) str() ([]byte, bool) {
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return nil, false
	}
	for j := s.i + 1; j < len(s.b); j++ {
		switch c := s.b[j]; {
		case c == '"':
			raw := s.b[s.i : j+1]
			s.i = j + 1
			return raw, true
		case c == '\\' || c < 0x20:
			return nil, false
		}
	}
	return nil, false
}

// scalar reads a string, a number, true, false or null.
func (s *scanner) scalar() ([]byte, bool) {
	s.space()
	if s.i >= len(s.b) {
		return nil, false
	}
	switch c := s.b[s.i]; {
	case c == '"':
		return s.str()
	case c == '-' || (c >= '0' && c <= '9'):
		return s.number()
	}
	for _, lit := range []string{"null", "true", "false"} {
		if len(s.b)-s.i >= len(lit) && string(s.b[s.i:s.i+len(lit)]) == lit {
			raw := s.b[s.i : s.i+len(lit)]
			s.i += len(lit)
			return raw, true
		}
	}
	return nil, false
}

// number reads a JSON number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *scanner) number() ([]byte, bool) {
	start, j := s.i, s.i
	digits := func() int {
		k := j
		for j < len(s.b) && s.b[j] >= '0' && s.b[j] <= '9' {
			j++
		}
		return j - k
	}
	if j < len(s.b) && s.b[j] == '-' {
		j++
	}
	switch {
	case j < len(s.b) && s.b[j] == '0':
		j++
	case digits() == 0:
		return nil, false
	}
	if j < len(s.b) && s.b[j] == '.' {
		j++
		if digits() == 0 {
			return nil, false
		}
	}
	if j < len(s.b) && (s.b[j] == 'e' || s.b[j] == 'E') {
		j++
		if j < len(s.b) && (s.b[j] == '+' || s.b[j] == '-') {
			j++
		}
		if digits() == 0 {
			return nil, false
		}
	}
	s.i = j
	return s.b[start:j], true
}

// entries reads an array of flat objects.
func (s *scanner) entries() ([]PushEntry, bool) {
	if !s.byte('[') {
		return nil, false
	}
	out := make([]PushEntry, 0, s.estimate())
	if s.byte(']') {
		return out, true
	}
	for {
		e, ok := s.entry()
		if !ok {
			return nil, false
		}
		out = append(out, e)
		if s.byte(']') {
			return out, true
		}
		if !s.byte(',') {
			return nil, false
		}
	}
}

// estimate guesses how many entries follow (one per "{" up to the body's
// end; a capacity, never a limit).
func (s *scanner) estimate() int {
	n := 0
	for _, c := range s.b[s.i:] {
		if c == '{' {
			n++
		}
	}
	return min(n, MaxEntries+1)
}

// entry reads one object of scalars into its fields.
func (s *scanner) entry() (PushEntry, bool) {
	var e PushEntry
	if !s.byte('{') {
		return e, false
	}
	if s.byte('}') {
		return e, true
	}
	for {
		key, ok := s.key()
		if !ok {
			return e, false
		}
		raw, ok := s.scalar()
		if !ok {
			return e, false
		}
		switch key {
		case "source_student_id":
			_ = e.SourceStudentID.UnmarshalJSON(raw)
		case "student_id":
			_ = e.StudentID.UnmarshalJSON(raw)
		case "date":
			_ = e.Date.UnmarshalJSON(raw)
		case "lesson_hour":
			_ = e.LessonHour.UnmarshalJSON(raw)
		case "status":
			_ = e.Status.UnmarshalJSON(raw)
		case "notes":
			_ = e.Notes.UnmarshalJSON(raw)
		default:
			if foldable(key) {
				return e, false
			}
		}
		if s.byte('}') {
			return e, true
		}
		if !s.byte(',') {
			return e, false
		}
	}
}

// foldable: a key encoding/json might match to a field by its
// case-insensitive rules though it is not written the same (an upper-case
// letter, or a non-ASCII one such as the Kelvin sign for "k"): those
// bodies are left to it.
func foldable(key string) bool {
	for _, c := range []byte(key) {
		if (c >= 'A' && c <= 'Z') || c >= 0x80 {
			return true
		}
	}
	return false
}
