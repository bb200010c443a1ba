package schoolsim

// Lists behind the generated school. Common Indonesian given names and
// second (family or father's) names, split by gender where Indonesians
// would; Batak clan names appear as second names for both.
var (
	maleGiven = []string{
		"Muhammad", "Ahmad", "Rizky", "Fajar", "Dimas", "Aditya", "Bagus", "Andi", "Budi", "Dwi",
		"Eko", "Farhan", "Galih", "Hendra", "Ilham", "Joko", "Kevin", "Lukman", "Nanda", "Putra",
		"Raka", "Rendi", "Satria", "Teguh", "Yoga", "Wahyu", "Arif", "Bayu", "Dani", "Fikri",
		"Gilang", "Hafiz", "Irfan", "Naufal", "Rafi", "Reza", "Yusuf", "Zaki", "Alif", "Bima",
		"Daffa", "Fadil", "Haikal", "Iqbal", "Krisna", "Malik", "Rangga", "Rehan", "Syahrul", "Taufik",
	}
	femaleGiven = []string{
		"Siti", "Dewi", "Putri", "Ayu", "Nur", "Rina", "Sri", "Indah", "Fitri", "Anisa",
		"Aulia", "Nabila", "Salsabila", "Zahra", "Dinda", "Intan", "Citra", "Kartika", "Mega", "Nadia",
		"Rahma", "Tiara", "Wulan", "Yuni", "Alya", "Amelia", "Aisyah", "Bunga", "Cahya", "Dian",
		"Eka", "Febri", "Hana", "Laras", "Maya", "Nisa", "Okta", "Rani", "Sekar", "Vina",
	}
	maleSecond = []string{
		"Pratama", "Saputra", "Setiawan", "Hidayat", "Nugroho", "Santoso", "Wibowo", "Kurniawan", "Permana", "Ramadhan",
		"Firmansyah", "Gunawan", "Susanto", "Prasetyo", "Hakim", "Maulana", "Syahputra", "Wijaya", "Hermawan", "Kusuma",
		"Siregar", "Nasution", "Harahap", "Lubis", "Simanjuntak", "Sihombing",
	}
	femaleSecond = []string{
		"Lestari", "Rahmawati", "Wulandari", "Safitri", "Puspita", "Anggraini", "Permatasari", "Handayani", "Kusumawati", "Maharani",
		"Oktaviani", "Rahayu", "Utami", "Purnamasari", "Nurhaliza", "Ramadhani", "Amalia", "Fitriani", "Septiani", "Wijayanti",
		"Siregar", "Nasution", "Harahap", "Lubis",
	}
	// fatherGiven are names of the parents' generation.
	fatherGiven = []string{
		"Slamet", "Suparman", "Sutrisno", "Bambang", "Hadi", "Agus", "Joko", "Darmawan", "Supriyadi", "Sugeng",
		"Wawan", "Dedi", "Asep", "Ujang", "Heru", "Rudi", "Yanto", "Iwan", "Ahmad", "Made",
	}
	motherGiven = []string{
		"Sumarni", "Sri Wahyuni", "Suryani", "Endang", "Yanti", "Nining", "Dewi", "Kartini", "Ratna", "Tuti",
		"Lilis", "Neneng", "Rohmah", "Sulastri", "Wartini",
	}
	teacherTitles = []string{"S.Pd.", "S.Pd.", "S.Pd.", "M.Pd.", "S.Kom.", "S.T.", "S.E.", "S.Pd.I."}

	cities = []string{
		"Bandung", "Jakarta", "Surabaya", "Semarang", "Yogyakarta", "Malang", "Medan", "Makassar", "Palembang", "Bogor",
		"Bekasi", "Depok", "Tangerang", "Cirebon", "Tasikmalaya", "Garut", "Sukabumi", "Surakarta", "Purwokerto", "Kediri",
		"Madiun", "Banyuwangi", "Denpasar", "Padang", "Pekanbaru", "Balikpapan", "Samarinda", "Pontianak", "Banjarmasin", "Manado",
		"Kupang", "Mataram", "Bandar Lampung", "Jambi", "Bengkulu", "Serang", "Magelang", "Klaten", "Tegal", "Pekalongan",
	}
	// homeCities are weighted towards the school's own region.
	homeCities = []string{"Bandung", "Bandung", "Bandung", "Cimahi", "Sumedang", "Garut", "Bandung", "Cimahi"}

	streets = []string{
		"Merdeka", "Sudirman", "Diponegoro", "Ahmad Yani", "Gatot Subroto", "Pahlawan", "Kartini", "Veteran", "Cempaka", "Melati",
		"Mawar", "Anggrek", "Kenanga", "Flamboyan", "Teuku Umar", "Imam Bonjol", "Gajah Mada", "Hayam Wuruk", "Siliwangi", "Pajajaran",
	}
	villages = []string{
		"Sukamaju", "Sukajadi", "Mekarsari", "Sindangsari", "Cibeunying", "Margahayu", "Sukasari", "Cipedes", "Cigadung", "Sekeloa",
		"Sadang Serang", "Antapani", "Arcamanik", "Cicaheum", "Pasirlayung",
	}
	districts = []string{"Coblong", "Cibeunying Kidul", "Antapani", "Arcamanik", "Sukajadi", "Cidadap", "Mandalajati", "Ujungberung"}

	phonePrefixes = []string{"0812", "0813", "0821", "0822", "0852", "0853", "0857", "0858", "0877", "0878", "0881", "0895", "0896"}
)
