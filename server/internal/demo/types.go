package demo

import (
	"context"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/violationtype"
)

// Types makes sure of the violation types the demo school and many tests
// start from: the defaults every school has (violationtype.EnsureDefaults)
// and, on a fresh list, the demo's own. It is idempotent.
func Types(ctx context.Context, d app.Deps) error {
	return pg.InTx(ctx, d.DB, func(tx *sqlx.Tx) error { return TypesTx(ctx, tx) })
}

// TypesTx is Types inside the caller's transaction.
func TypesTx(ctx context.Context, tx *sqlx.Tx) error {
	if err := violationtype.EnsureDefaults(ctx, tx); err != nil {
		return err
	}
	return violationtype.EnsureList(ctx, tx, ViolationTypes)
}

// ViolationTypes are the demo school's violation types, written for
// Indonesian secondary schools.
var ViolationTypes = []violationtype.Preset{
	// Ringan
	{Category: "Ringan", Name: "Tidak memakai atribut seragam lengkap", Points: 5, Sanction: "Teguran lisan dan melengkapi atribut hari itu juga", Description: "Topi, dasi, ikat pinggang, badge, atau kaos kaki tidak sesuai ketentuan."},
	{Category: "Ringan", Name: "Rambut tidak rapi atau gondrong", Points: 5, Sanction: "Teguran lisan; rambut dirapikan paling lambat esok hari", Description: "Rambut siswa putra melewati kerah/telinga, atau rambut diwarnai."},
	{Category: "Ringan", Name: "Terlambat masuk kelas setelah istirahat", Points: 3, Sanction: "Teguran lisan", Description: "Masuk kelas setelah bel tanda istirahat berakhir tanpa alasan."},
	{Category: "Ringan", Name: "Tidak membawa buku pelajaran", Points: 2, Sanction: "Teguran lisan", Description: "Tidak membawa buku paket atau buku catatan sesuai jadwal."},
	{Category: "Ringan", Name: "Tidak mengerjakan tugas atau PR", Points: 3, Sanction: "Menyelesaikan tugas di sekolah", Description: "Tidak mengumpulkan tugas tanpa alasan yang dapat diterima."},
	{Category: "Ringan", Name: "Memakai sepatu tidak sesuai ketentuan", Points: 3, Sanction: "Teguran lisan", Description: "Sepatu berwarna atau bermodel di luar ketentuan sekolah."},
	{Category: "Ringan", Name: "Membuang sampah sembarangan", Points: 5, Sanction: "Membersihkan lingkungan kelas"},
	{Category: "Ringan", Name: "Makan atau minum di kelas saat pelajaran", Points: 3, Sanction: "Teguran lisan"},
	{Category: "Ringan", Name: "Tidak mengikuti upacara bendera tanpa alasan", Points: 10, Sanction: "Teguran tertulis", Description: "Berada di kelas, kantin, atau tempat lain saat upacara berlangsung."},
	{Category: "Ringan", Name: "Membuat kegaduhan di kelas", Points: 5, Sanction: "Teguran lisan", Description: "Mengganggu jalannya pelajaran atau teman yang sedang belajar."},
	{Category: "Ringan", Name: "Memakai aksesoris atau perhiasan berlebihan", Points: 3, Sanction: "Aksesoris disimpan guru dan dikembalikan sepulang sekolah"},
	{Category: "Ringan", Name: "Keluar kelas tanpa izin guru", Points: 5, Sanction: "Teguran lisan"},
	{Category: "Ringan", Name: "Menggunakan ponsel saat pelajaran tanpa izin", Points: 10, Sanction: "Ponsel disimpan guru dan diambil orang tua"},
	{Category: "Ringan", Name: "Tidak melaksanakan piket kelas", Points: 3, Sanction: "Piket pengganti keesokan hari"},
	// Sedang
	{Category: "Sedang", Name: "Membolos jam pelajaran", Points: 20, Sanction: "Pembinaan BK", Description: "Meninggalkan kelas atau tidak mengikuti jam pelajaran tertentu padahal hadir di sekolah."},
	{Category: "Sedang", Name: "Meninggalkan sekolah tanpa izin", Points: 25, Sanction: "Panggilan orang tua", Description: "Keluar lingkungan sekolah pada jam sekolah tanpa surat izin piket."},
	{Category: "Sedang", Name: "Memalsukan tanda tangan orang tua atau wali", Points: 30, Sanction: "Panggilan orang tua dan surat pernyataan"},
	{Category: "Sedang", Name: "Berbohong kepada guru atau karyawan", Points: 15, Sanction: "Pembinaan BK"},
	{Category: "Sedang", Name: "Mencontek saat ulangan atau ujian", Points: 20, Sanction: "Nilai ulangan dibatalkan dan ulangan susulan"},
	{Category: "Sedang", Name: "Berkata kasar atau kotor kepada teman", Points: 15, Sanction: "Teguran tertulis dan meminta maaf"},
	{Category: "Sedang", Name: "Bersikap tidak sopan kepada guru atau karyawan", Points: 30, Sanction: "Panggilan orang tua dan meminta maaf"},
	{Category: "Sedang", Name: "Mencoret-coret dinding, meja, atau fasilitas sekolah", Points: 20, Sanction: "Membersihkan atau mengecat ulang"},
	{Category: "Sedang", Name: "Membawa rokok atau rokok elektrik (vape)", Points: 25, Sanction: "Barang disita dan pembinaan BK", Description: "Membawa tanpa menggunakan; merokok di sekolah termasuk pelanggaran berat."},
	{Category: "Sedang", Name: "Mengubah model seragam tidak sesuai ketentuan", Points: 15, Sanction: "Seragam diganti sesuai ketentuan", Description: "Seragam dikecilkan, dipotong, atau rok/celana diubah modelnya."},
	{Category: "Sedang", Name: "Berpacaran berlebihan di lingkungan sekolah", Points: 20, Sanction: "Pembinaan BK"},
	{Category: "Sedang", Name: "Mengganggu ketertiban kelas lain", Points: 10, Sanction: "Teguran tertulis"},
	{Category: "Sedang", Name: "Tidak mengikuti kegiatan wajib sekolah tanpa keterangan", Points: 15, Sanction: "Tugas sosial", Description: "Misalnya ekstrakurikuler wajib, kegiatan keagamaan, atau kerja bakti."},
	{Category: "Sedang", Name: "Membawa kendaraan bermotor tanpa SIM", Points: 15, Sanction: "Panggilan orang tua"},
	// Berat
	{Category: "Berat", Name: "Berkelahi", Points: 75, Sanction: "Skorsing dan panggilan orang tua", Description: "Berkelahi dengan siswa lain di dalam atau di luar lingkungan sekolah saat berseragam."},
	{Category: "Berat", Name: "Membawa senjata tajam", Points: 100, Sanction: "Senjata disita, skorsing, dan panggilan orang tua"},
	{Category: "Berat", Name: "Membawa, memakai, atau mengedarkan narkoba", Points: 150, Sanction: "Dikembalikan kepada orang tua dan dilaporkan kepada pihak berwajib"},
	{Category: "Berat", Name: "Perundungan (bullying)", Points: 75, Sanction: "Pembinaan BK, panggilan orang tua, dan skorsing", Description: "Menyakiti, mengejek, atau mengucilkan teman secara berulang, fisik maupun verbal."},
	{Category: "Berat", Name: "Perundungan di media sosial (cyberbullying)", Points: 75, Sanction: "Pembinaan BK dan panggilan orang tua"},
	{Category: "Berat", Name: "Mencuri", Points: 100, Sanction: "Mengganti kerugian, panggilan orang tua, dan skorsing"},
	{Category: "Berat", Name: "Merokok di lingkungan sekolah", Points: 50, Sanction: "Panggilan orang tua dan pembinaan BK"},
	{Category: "Berat", Name: "Minum minuman keras", Points: 100, Sanction: "Panggilan orang tua dan skorsing"},
	{Category: "Berat", Name: "Berjudi", Points: 75, Sanction: "Panggilan orang tua dan skorsing", Description: "Termasuk judi daring di lingkungan sekolah."},
	{Category: "Berat", Name: "Membawa atau menyebarkan konten pornografi", Points: 100, Sanction: "Barang disita dan panggilan orang tua"},
	{Category: "Berat", Name: "Merusak fasilitas sekolah dengan sengaja", Points: 50, Sanction: "Mengganti kerugian dan panggilan orang tua"},
	{Category: "Berat", Name: "Mengancam atau menganiaya guru atau karyawan", Points: 150, Sanction: "Dikembalikan kepada orang tua"},
	{Category: "Berat", Name: "Terlibat tawuran antarsekolah", Points: 100, Sanction: "Skorsing dan panggilan orang tua"},
	{Category: "Berat", Name: "Memalsukan dokumen sekolah atau surat keterangan dokter", Points: 50, Sanction: "Panggilan orang tua dan surat pernyataan"},
}
