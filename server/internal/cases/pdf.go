package cases

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/pdfdoc"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/shared/api"
)

// The regulation every document of a case cites.
const regulation = "Peraturan Menteri Pendidikan Dasar dan Menengah Nomor 6 Tahun 2026 tentang Budaya Sekolah Aman dan Nyaman"

const lineH = 5.5

var roleNames = map[string]string{api.CaseRoleSuspect: "Terduga pelaku", api.CaseRoleVictim: "Korban", api.CaseRoleWitness: "Saksi", api.CaseRoleReporter: "Pelapor"}

var stageNames = map[string]string{api.CaseStageIdentification: "Identifikasi dan klasifikasi", api.CaseStageHandling: "Penanganan",
	api.CaseStageConclusions: "Kesimpulan dan rekomendasi", api.CaseStageClosed: "Ditutup"}

var classNames = map[string]string{"": "Belum diklasifikasikan", api.CaseClassSchoolRule: "Pelanggaran tata tertib sekolah",
	api.CaseClassSuspectedLaw: "Dugaan pelanggaran peraturan perundang-undangan"}

var recoveryNames = map[string]string{"counselling": "Konseling", "psychologist": "Rujukan psikolog", "class_change": "Pindah kelas", "other": "Lainnya"}

var statusNames = map[string]string{api.AgreementOpen: "belum dicek", api.AgreementDone: "terlaksana", api.AgreementNotDone: "tidak terlaksana"}

// document is what both PDFs need: the case as the team sees it, the
// school and its logo.
type document struct {
	c    api.Case
	prof school.Profile
	logo []byte
	now  time.Time
}

// load reads case id for a PDF: the team and admins only (Forbidden for
// anyone else who sees it), the read logged as what.
func (s *Store) load(ctx context.Context, rd Reader, id int64, what string, check func(tx *sqlx.Tx, c api.Case) error) (document, error) {
	var d document
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		c, err := s.get(ctx, tx, rd, id)
		if err != nil {
			return err
		}
		if c.Level != api.CaseLevelFull {
			return apperr.New(apperr.Forbidden, "cases.not_in_team")
		}
		if check != nil {
			if err := check(tx, c); err != nil {
				return err
			}
		}
		if d.prof, err = school.LoadProfile(ctx, tx); err != nil {
			return err
		}
		if d.logo, err = school.LoadLogo(ctx, tx); err != nil {
			return err
		}
		d.c = c
		return logReads(ctx, tx, rd, []int64{id}, []string{c.Level}, what)
	})
	d.now = s.now()
	return d, err
}

func (d document) start(title string) *pdfdoc.Doc {
	doc := pdfdoc.New(pdfdoc.Options{Paper: pdfdoc.PaperByName(d.prof.PaperSize), Title: title, Author: d.prof.Name,
		PageLabel: pdfdoc.PageFooterID, Created: d.now})
	doc.WriteLetterhead(pdfdoc.Letterhead{Name: d.prof.Name, Address: d.prof.Address, Phone: d.prof.Phone, Logo: d.logo})
	doc.SetFont(pdfdoc.Font, "B", 13)
	doc.MultiCell(0, 7, title, "", "C", false)
	doc.Ln(3)
	doc.SetFont(pdfdoc.Font, "", 11)
	return doc
}

func heading(doc *pdfdoc.Doc, text string) {
	doc.Ln(2)
	doc.SetFont(pdfdoc.Font, "B", 11)
	doc.MultiCell(0, lineH+1, text, "", "L", false)
	doc.SetFont(pdfdoc.Font, "", 11)
}

func para(doc *pdfdoc.Doc, text string) {
	doc.MultiCell(0, lineH, text, "", "L", false)
}

func field(doc *pdfdoc.Doc, label, value string) {
	doc.SetFont(pdfdoc.Font, "", 11)
	doc.CellFormat(45, lineH, label, "", 0, "L", false, 0, "")
	doc.CellFormat(4, lineH, ":", "", 0, "L", false, 0, "")
	doc.MultiCell(0, lineH, dash(value), "", "L", false)
}

func dash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "-"
	}
	return s
}

func dateTimeID(t time.Time) string {
	t = schoolday.In(t)
	return pdfdoc.DateID(t) + " pukul " + t.Format("15.04") + " WIB"
}

func dateOnID(s string) string {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return s
	}
	return pdfdoc.DateID(t)
}

func (d document) facts(doc *pdfdoc.Doc) {
	c := d.c
	field(doc, "Kategori", c.CategoryName)
	field(doc, "Waktu kejadian", dateTimeID(c.OccurredAt))
	field(doc, "Tempat", c.Place)
	field(doc, "Klasifikasi", classNames[c.Classification])
	heading(doc, "Uraian kejadian")
	desc := ""
	if c.Description != nil {
		desc = *c.Description
	}
	para(doc, dash(desc))
}

// people lists the students by role; shown says whose names appear, the
// others counted only ("Korban: 1 orang, identitas dirahasiakan").
func (d document) people(doc *pdfdoc.Doc, shown func(role string) bool) {
	heading(doc, "Pihak yang terlibat")
	for _, role := range []string{api.CaseRoleSuspect, api.CaseRoleVictim, api.CaseRoleWitness, api.CaseRoleReporter} {
		var names []string
		for _, p := range d.c.People {
			if p.Kind == api.CaseParticipantStudent && p.Role == role && p.Name != nil {
				n := *p.Name
				if p.ClassName != "" {
					n += " (" + p.ClassName + ")"
				}
				names = append(names, n)
			}
		}
		if len(names) == 0 {
			continue
		}
		if shown(role) {
			field(doc, roleNames[role], strings.Join(names, ", "))
		} else {
			field(doc, roleNames[role], strconv.Itoa(len(names))+" orang, identitas dirahasiakan")
		}
	}
}

// signatures writes two signatures side by side: the case owner and the
// principal ("Mengetahui").
func (d document) signatures(doc *pdfdoc.Doc, ownerRole, ownerName string) {
	w := doc.ContentWidth() / 2
	need := 45.0
	if doc.Room() < need {
		doc.AddPage()
	}
	doc.Ln(6)
	y := doc.GetY()
	place := pdfdoc.DateID(schoolday.In(d.now))
	if city := strings.TrimSpace(d.prof.City); city != "" {
		place = city + ", " + place
	}
	doc.SetXY(pdfdoc.MarginLeft+w, y)
	doc.MultiCell(w, lineH, place, "", "C", false)
	y += lineH + 1
	for i, s := range [][3]string{{"Mengetahui,\nKepala Sekolah,", d.prof.PrincipalName, d.prof.PrincipalNIP}, {"\n" + ownerRole + ",", ownerName, ""}} {
		x := pdfdoc.MarginLeft + float64(i)*w
		doc.SetXY(x, y)
		doc.MultiCell(w, lineH, s[0], "", "C", false)
		doc.SetXY(x, y+2*lineH+18)
		doc.SetFont(pdfdoc.Font, "B", 11)
		name := s[1]
		if strings.TrimSpace(name) == "" {
			name = "(.................................)"
		}
		doc.MultiCell(w, lineH, name, "", "C", false)
		doc.SetFont(pdfdoc.Font, "", 10)
		if s[2] != "" {
			doc.SetX(x)
			doc.MultiCell(w, lineH, "NIP. "+s[2], "", "C", false)
		}
		doc.SetFont(pdfdoc.Font, "", 11)
	}
}

func (c *document) stage(name string) api.CaseStage {
	for _, s := range c.c.Stages {
		if s.Stage == name {
			return s
		}
	}
	return api.CaseStage{}
}

// ReferralPDF renders the referral of a suspected breach of law to the
// regional working group (Pokja): facts only; the identities of victims,
// witnesses and reporters only when identities is set, which only a stage
// owner may ask for (audited).
func (s *Store) ReferralPDF(ctx context.Context, actor audit.Actor, rd Reader, id int64, identities bool) ([]byte, error) {
	d, err := s.load(ctx, rd, id, "referral_pdf", func(tx *sqlx.Tx, c api.Case) error {
		if c.Classification != api.CaseClassSuspectedLaw {
			return apperr.New(apperr.Conflict, "cases.referral.not_law")
		}
		if !identities {
			return nil
		}
		owner := false
		for _, st := range c.Stages {
			owner = owner || (st.OwnerID != nil && *st.OwnerID == rd.UserID)
		}
		if !owner {
			return apperr.New(apperr.Forbidden, "cases.referral.owner_only")
		}
		return audit.Record(ctx, tx, actor, "case.referral.identities", "case", strconv.FormatInt(id, 10), map[string]any{"included": true})
	})
	if err != nil {
		return nil, err
	}
	doc := d.start("RUJUKAN DUGAAN PELANGGARAN PERATURAN PERUNDANG-UNDANGAN")
	para(doc, "Kepada Yth.\nKetua Kelompok Kerja (Pokja) Budaya Sekolah Aman dan Nyaman\ndi tempat")
	doc.Ln(3)
	para(doc, "Berdasarkan "+regulation+", bersama ini kami merujuk dugaan pelanggaran peraturan perundang-undangan yang terjadi di "+
		dash(d.prof.Name)+" dengan fakta sebagai berikut.")
	doc.Ln(2)
	d.facts(doc)
	d.people(doc, func(role string) bool { return identities || role == api.CaseRoleSuspect })
	if !identities {
		doc.Ln(2)
		doc.SetFont(pdfdoc.Font, "", 9)
		para(doc, "Identitas korban, saksi dan pelapor dirahasiakan sesuai peraturan; dapat disampaikan terpisah atas permintaan resmi.")
		doc.SetFont(pdfdoc.Font, "", 11)
	}
	doc.Ln(2)
	para(doc, "Demikian rujukan ini kami sampaikan untuk ditindaklanjuti sesuai kewenangan.")
	owner := d.stage(api.CaseStageIdentification)
	d.signatures(doc, "Penanggung jawab kasus", owner.OwnerName)
	return doc.Bytes()
}

// ReportPDF renders the closing report: what happened, the classification,
// what was done, the agreements and their outcome, and the
// recommendations, signed by the case owner and the principal. Victims,
// witnesses and reporters are counted, not named.
func (s *Store) ReportPDF(ctx context.Context, rd Reader, id int64) ([]byte, error) {
	d, err := s.load(ctx, rd, id, "report_pdf", nil)
	if err != nil {
		return nil, err
	}
	c := d.c
	doc := d.start("LAPORAN PENANGANAN KASUS")
	field(doc, "Kasus", c.Title)
	field(doc, "Tahap", stageNames[c.Stage])
	d.facts(doc)
	d.people(doc, func(role string) bool { return role == api.CaseRoleSuspect })

	heading(doc, "Yang telah dilakukan")
	for _, st := range c.Stages {
		line := stageNames[st.Stage] + " — penanggung jawab " + dash(st.OwnerName) + ", tenggat " + dateOnID(st.DueOn)
		if st.CompletedAt != nil {
			line += ", selesai " + pdfdoc.DateID(schoolday.In(*st.CompletedAt))
		}
		if st.Stage != api.CaseStageConclusions && st.Notes != nil && *st.Notes != "" {
			line += ": " + *st.Notes
		}
		para(doc, "• "+line)
	}
	for _, se := range c.Sessions {
		kind := ""
		if se.HandlingTypeName != "" {
			kind = " (" + se.HandlingTypeName + ")"
		}
		para(doc, fmt.Sprintf("• Sesi %s%s dengan %d pihak dan %d staf", dateTimeID(se.HeldAt), kind, len(se.People), len(se.Staff)))
	}
	for _, v := range c.Violations {
		para(doc, fmt.Sprintf("• Pelanggaran dicatat: %s — %s (%d poin)", v.StudentName, v.TypeName, v.Points))
	}
	for _, r := range c.Recovery {
		para(doc, "• Pemulihan korban: "+recoveryNames[r.Kind]+", "+dateOnID(r.PlannedOn)+suffix(r.Description))
	}

	heading(doc, "Kesepakatan pemulihan dan hasilnya")
	if len(c.Agreements) == 0 {
		para(doc, "-")
	}
	for _, a := range c.Agreements {
		para(doc, "Disepakati "+dateOnID(a.AgreedOn)+":")
		for _, it := range a.Items {
			party := roleNames[it.PartyRole]
			if it.PartyRole == api.CaseRoleSuspect || it.PartyRole == "" {
				party = it.PartyName
			}
			line := fmt.Sprintf("• %s: %s, paling lambat %s — %s", dash(party), it.Action, dateOnID(it.DueOn), statusNames[it.Status])
			if it.CheckedByName != "" {
				line += " (dicek oleh " + it.CheckedByName + ")"
			}
			para(doc, line)
		}
	}

	heading(doc, "Kesimpulan dan rekomendasi")
	rec := d.stage(api.CaseStageConclusions)
	notes := ""
	if rec.Notes != nil {
		notes = *rec.Notes
	}
	para(doc, dash(notes))
	doc.Ln(2)
	doc.SetFont(pdfdoc.Font, "", 9)
	para(doc, "Disusun berdasarkan "+regulation+".")
	doc.SetFont(pdfdoc.Font, "", 11)
	d.signatures(doc, "Penanggung jawab kasus", rec.OwnerName)
	return doc.Bytes()
}

func suffix(s string) string {
	if s == "" {
		return ""
	}
	return " — " + s
}

// RecordReferral records when and to whom the referral was sent.
func (s *Store) RecordReferral(ctx context.Context, actor audit.Actor, rd Reader, id int64, in api.CaseReferralInput) (api.Case, error) {
	f := apperr.Fields{}
	in.SentTo = clean(in.SentTo)
	switch {
	case in.SentTo == "":
		f.Add("sent_to", "cases.referral.sent_to_required")
	case tooLong(in.SentTo, MaxTitle):
		f.Add("sent_to", "cases.title.too_long", "max", MaxTitle)
	}
	if !validDate(in.SentOn) {
		f.Add("sent_on", "cases.due_on.invalid")
	} else if in.SentOn > s.today() {
		f.Add("sent_on", "cases.agreement.future")
	}
	in.Notes = strings.TrimSpace(in.Notes)
	if tooLong(in.Notes, MaxNotes) {
		f.Add("notes", "cases.notes.too_long", "max", MaxNotes)
	}
	if len(f) > 0 {
		return api.Case{}, invalid(f)
	}
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		_, class, err := lockForChange(ctx, tx, rd, id)
		if err != nil {
			return err
		}
		if class != api.CaseClassSuspectedLaw {
			return apperr.New(apperr.Conflict, "cases.referral.not_law")
		}
		var rid int64
		if err := tx.GetContext(ctx, &rid, `INSERT INTO case_referrals (case_id, sent_to, sent_on, notes, created_by, created_by_name)
			VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`, id, in.SentTo, in.SentOn, in.Notes, nullID(actor.ID), actor.Display()); err != nil {
			return fmt.Errorf("cases: referral: %w", err)
		}
		return audit.Record(ctx, tx, actor, "case.referral.sent", "case", strconv.FormatInt(id, 10), map[string]any{
			"referral_id": rid, "sent_to": in.SentTo, "sent_on": in.SentOn})
	})
	if err != nil {
		return api.Case{}, err
	}
	return s.Get(ctx, rd, id, "update")
}
