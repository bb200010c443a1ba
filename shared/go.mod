module github.com/tatib/tatib/shared

go 1.26.8
