package letter

import "testing"

func TestLetterText(t *testing.T) {
	const sp2 = "Meskipun telah menerima Surat Peringatan 1, siswa tersebut masih melakukan pelanggaran. Mohon hadir."
	for _, tc := range []struct {
		name      string
		text      string
		levels    []int
		delivered bool
		want      string
	}{
		{"ClaimKeptWhenDelivered", sp2, []int{2}, true, sp2},
		{"ClaimDroppedWhenNotDelivered", sp2, []int{2}, false, "Siswa tersebut masih melakukan pelanggaran. Mohon hadir."},
		{"RaisedLetterSaysSo", sp2, []int{1, 2}, false,
			"Surat ini sekaligus berlaku sebagai SP 1–2: poin siswa telah mencapai batas setiap jenjang tersebut. Siswa tersebut masih melakukan pelanggaran. Mohon hadir."},
		{"MidSentence", "Kami sampaikan bahwa walaupun sudah menerima SP 1 (satu), ia mengulang.", []int{2}, false, "Kami sampaikan bahwa ia mengulang."},
		{"NoClaim", "Poin mencapai batas SP 3.", []int{3}, false, "Poin mencapai batas SP 3."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := letterText(tc.text, "SP 1–2", tc.levels, tc.delivered); got != tc.want {
				t.Fatalf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}
