package httpx

import "github.com/tatib/tatib/server/internal/apperr"

const BadRequestCode = apperr.BadRequest

func errCode(err error) string { return apperr.Code(err) }
