package cases

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/shared/api"
)

// PeriodCounts counts the cases that happened in [from, to] (Asia/Jakarta
// days, both included) for the semester report: by category, by stage now,
// by classification, and how many were referred to the Pokja (a referral
// recorded). Counts only — no case, title or name: what the holders of
// cases.view_counts may see (docs/cases.md). db is the report's snapshot.
func PeriodCounts(ctx context.Context, db sqlx.QueryerContext, from, to schoolday.Date) (api.RecapCases, error) {
	out := api.RecapCases{ByCategory: []api.CaseCount{}, ByStage: []api.CaseCount{}, ByClassification: []api.CaseCount{}}
	// in is the period's cases; $1 and $2 the first and last day.
	const in = `WITH p AS (SELECT c.* FROM cases c WHERE (c.occurred_at AT TIME ZONE 'Asia/Jakarta')::date BETWEEN $1::date AND $2::date)`
	f, t := from.String(), to.String()
	if err := sqlx.GetContext(ctx, db, &out, in+` SELECT count(*) AS total,
		count(*) FILTER (WHERE EXISTS (SELECT 1 FROM case_referrals r WHERE r.case_id = p.id)) AS referred
		FROM p`, f, t); err != nil {
		return out, fmt.Errorf("cases: period counts: %w", err)
	}
	// Every active category, and an inactive one that has cases.
	if err := sqlx.SelectContext(ctx, db, &out.ByCategory, in+` SELECT cc.id::text AS key, cc.name AS label, count(p.id) AS count
		FROM case_categories cc LEFT JOIN p ON p.category_id = cc.id
		GROUP BY cc.id HAVING count(p.id) > 0 OR cc.active ORDER BY cc.sort_order, cc.name`, f, t); err != nil {
		return out, fmt.Errorf("cases: period counts: %w", err)
	}
	if err := sqlx.SelectContext(ctx, db, &out.ByStage, in+` SELECT st AS key, '' AS label, count(p.id) AS count
		FROM unnest(ARRAY['identification','handling','conclusions','closed']) WITH ORDINALITY AS x(st, i)
		LEFT JOIN p ON p.stage = x.st GROUP BY st, i ORDER BY i`, f, t); err != nil {
		return out, fmt.Errorf("cases: period counts: %w", err)
	}
	if err := sqlx.SelectContext(ctx, db, &out.ByClassification, in+` SELECT k AS key, '' AS label, count(p.id) AS count
		FROM unnest(ARRAY['`+api.CaseClassSchoolRule+`','`+api.CaseClassSuspectedLaw+`','']) WITH ORDINALITY AS x(k, i)
		LEFT JOIN p ON COALESCE(p.classification, '') = x.k GROUP BY k, i ORDER BY i`, f, t); err != nil {
		return out, fmt.Errorf("cases: period counts: %w", err)
	}
	return out, nil
}

// StageName is a stage's Indonesian name, as the case documents write it.
func StageName(stage string) string { return stageNames[stage] }

// ClassificationName is a classification's Indonesian name ("" is not
// classified yet), as the case documents write it.
func ClassificationName(c string) string { return classNames[c] }
