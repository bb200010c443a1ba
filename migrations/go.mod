module github.com/tatib/tatib/migrations

go 1.26.8
