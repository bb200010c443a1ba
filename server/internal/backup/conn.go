package backup

import (
	"errors"
	"net/url"
	"os"
	"strings"
)

// Conn is how pg_dump and pg_restore reach a database: the connection
// string without its password, which goes through PGPASSWORD so it never
// shows in the process list.
type Conn struct {
	DSN      string
	Password string
	Database string
}

// driverOnly are lib/pq's own connection parameters, which libpq (pg_dump,
// pg_restore) refuses as unknown.
var driverOnly = map[string]bool{"binary_parameters": true, "disable_prepared_binary_result": true}

// ParseConn splits a DATABASE_URL (a postgres:// URL or libpq's
// key=value form) into a Conn.
func ParseConn(raw string) (Conn, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return Conn{}, errors.New("backup: no database URL")
	}
	if strings.HasPrefix(raw, "postgres://") || strings.HasPrefix(raw, "postgresql://") {
		u, err := url.Parse(raw)
		if err != nil {
			return Conn{}, errors.New("backup: the database URL cannot be read")
		}
		var c Conn
		if u.User != nil {
			c.Password, _ = u.User.Password()
			u.User = url.User(u.User.Username())
		}
		q := u.Query()
		if pw := q.Get("password"); pw != "" {
			c.Password = pw
		}
		q.Del("password")
		for k := range driverOnly {
			q.Del(k)
		}
		u.RawQuery = q.Encode()
		c.Database = strings.TrimPrefix(u.Path, "/")
		if c.Database == "" && u.User != nil {
			c.Database = u.User.Username()
		}
		c.DSN = u.String()
		return c, nil
	}
	pairs, err := splitKV(raw)
	if err != nil {
		return Conn{}, err
	}
	var c Conn
	var kept []string
	for _, kv := range pairs {
		if driverOnly[kv[0]] {
			continue
		}
		switch kv[0] {
		case "password":
			c.Password = kv[1]
			continue
		case "dbname":
			c.Database = kv[1]
		}
		kept = append(kept, kv[0]+"='"+strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(kv[1])+"'")
	}
	c.DSN = strings.Join(kept, " ")
	return c, nil
}

// splitKV reads libpq's key=value connection string (values may be
// single-quoted with backslash escapes).
func splitKV(s string) ([][2]string, error) {
	var out [][2]string
	i := 0
	for {
		for i < len(s) && s[i] == ' ' {
			i++
		}
		if i >= len(s) {
			return out, nil
		}
		eq := strings.IndexByte(s[i:], '=')
		if eq < 0 {
			return nil, errors.New("backup: the database URL cannot be read")
		}
		key := strings.TrimSpace(s[i : i+eq])
		i += eq + 1
		for i < len(s) && s[i] == ' ' {
			i++
		}
		var val strings.Builder
		if i < len(s) && s[i] == '\'' {
			i++
			for ; i < len(s) && s[i] != '\''; i++ {
				if s[i] == '\\' && i+1 < len(s) {
					i++
				}
				val.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, errors.New("backup: the database URL cannot be read")
			}
			i++
		} else {
			for ; i < len(s) && s[i] != ' '; i++ {
				if s[i] == '\\' && i+1 < len(s) {
					i++
				}
				val.WriteByte(s[i])
			}
		}
		out = append(out, [2]string{key, val.String()})
	}
}

// env is the programs' environment: ours, with the password.
func (c Conn) env() []string {
	var out []string
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "PGPASSWORD=") {
			out = append(out, e)
		}
	}
	if c.Password != "" {
		out = append(out, "PGPASSWORD="+c.Password)
	}
	return out
}
