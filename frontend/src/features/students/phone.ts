/** Links for an Indonesian phone number as stored by student affairs ("0812-3456-789", "+62 812…"). */
export interface PhoneLinks {
  /** tel: link, the number's digits (a leading + kept). */
  tel: string;
  /** https://wa.me/628…, for mobile numbers only (08…, 628…, +628…); null otherwise. */
  whatsapp: string | null;
}

/** null when the text holds too few digits to be a phone number. */
export function phoneLinks(raw: string | null | undefined): PhoneLinks | null {
  const text = (raw ?? '').trim();
  const digits = text.replace(/\D/g, '');
  if (digits.length < 6) return null;
  const plus = text.startsWith('+');
  const tel = `tel:${plus ? '+' : ''}${digits}`;
  // International form without the plus: 08… → 628…, 628… and +628… as they are.
  const intl = digits.startsWith('0') ? `62${digits.slice(1)}` : digits;
  const mobile = /^628\d{7,12}$/.test(intl);
  return { tel, whatsapp: mobile ? `https://wa.me/${intl}` : null };
}
