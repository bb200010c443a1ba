package config

import (
	"testing"
	"time"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestFromEnv(t *testing.T) {
	t.Run("Defaults", func(t *testing.T) {
		c, err := FromEnv(env(nil))
		if err != nil {
			t.Fatal(err)
		}
		if c.Addr != "127.0.0.1:8080" || c.SessionIdle != 8*time.Hour || !c.Demo || c.BaseURL != "http://127.0.0.1:8080" || c.Secure() ||
			c.MaxBodyBytes != 1<<20 || c.MaxUploadBytes != DefaultMaxUploadBytes || c.MessagingWorkers != 2 {
			t.Fatalf("%+v", c)
		}
	})
	t.Run("DatabaseConnections", func(t *testing.T) {
		c, err := FromEnv(env(map[string]string{"DATABASE_URL": "postgres://pooler:6432/tatib"}))
		if err != nil || c.DirectURL() != "postgres://pooler:6432/tatib" || c.DBMaxConns != 10 || c.ListenConns() != 1 || c.PoolConns() != 7 {
			t.Fatalf("%+v %v", c, err)
		}
		c, err = FromEnv(env(map[string]string{"DATABASE_URL": "postgres://pooler:6432/tatib", "TATIB_DATABASE_DIRECT_URL": "postgres://db:5432/tatib",
			"TATIB_DB_MAX_CONNS": "6", "TATIB_MESSAGING_WORKERS": "0"}))
		if err != nil || c.DirectURL() != "postgres://db:5432/tatib" || c.ListenConns() != 1 || c.PoolConns() != 3 {
			t.Fatalf("%+v %v", c, err)
		}
	})
	t.Run("MessagingWorkersOff", func(t *testing.T) {
		c, err := FromEnv(env(map[string]string{"TATIB_MESSAGING_WORKERS": "0"}))
		if err != nil || c.MessagingWorkers != 0 {
			t.Fatalf("%+v %v", c, err)
		}
	})
	t.Run("HTTPSIsSecure", func(t *testing.T) {
		c, err := FromEnv(env(map[string]string{"TATIB_BASE_URL": "https://tatib.sekolah.sch.id", "TATIB_DEMO": "0"}))
		if err != nil || !c.Secure() || c.Demo {
			t.Fatalf("%+v %v", c, err)
		}
	})
	for name, m := range map[string]map[string]string{
		"ErrIdleOverMax":            {"TATIB_SESSION_IDLE": "48h", "TATIB_SESSION_MAX_AGE": "24h"},
		"ErrDuration":               {"TATIB_SESSION_IDLE": "sebentar"},
		"ErrBaseURL":                {"TATIB_BASE_URL": "tatib"},
		"ErrLogFormat":              {"TATIB_LOG_FORMAT": "xml"},
		"ErrPort":                   {"TATIB_DB_PORT": "x"},
		"ErrUploadBelowBody":        {"TATIB_MAX_BODY_BYTES": "2000000", "TATIB_MAX_UPLOAD_BYTES": "1000000"},
		"ErrUpload":                 {"TATIB_MAX_UPLOAD_BYTES": "8MB"},
		"ErrMessagingWorkers":       {"TATIB_MESSAGING_WORKERS": "-1"},
		"ErrMessagingWorkersWord":   {"TATIB_MESSAGING_WORKERS": "dua"},
		"ErrMaxConnsBelowListeners": {"TATIB_DB_MAX_CONNS": "4"},
		"ErrMaxConnsWord":           {"TATIB_DB_MAX_CONNS": "banyak"},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := FromEnv(env(m)); err == nil {
				t.Fatal("no error")
			}
		})
	}
}
